// Draws compare's index.html with Chart.js (assets/chart.umd.js) from the JSON in <script id="data">:
// per metric, A's and B's bars side by side for each cell; per cell, A's and B's seconds overlaid.
// Everything it needs is beside the page, so it works from file:// with no network.
(function () {
  'use strict';

  const A = '#718096';
  const B = '#3182ce';

  // The error listener and the shared defaults are in charts.js, loaded before this.
  const data = JSON.parse(document.getElementById('data').textContent);

  Chart.defaults.plugins.legend.position = 'bottom';

  // The canvas says what it drew (charts.js, shared with the report's page).
  const mark = window.chartMark;

  document.querySelectorAll('canvas[data-kind="bar"]').forEach(function (canvas) {
    const bar = data.bars.find(function (b) { return b.metric === canvas.dataset.metric; });
    new Chart(canvas, {
      type: 'bar',
      data: {
        labels: data.cells,
        datasets: [
          { label: 'A', data: bar.a, backgroundColor: A, borderRadius: 3, maxBarThickness: 40 },
          { label: 'B', data: bar.b, backgroundColor: B, borderRadius: 3, maxBarThickness: 40 }
        ]
      },
      options: {
        plugins: { title: { display: true, text: bar.metric + (bar.unit ? ' (' + bar.unit + ')' : '') } },
        scales: { y: { beginAtZero: true } }
      },
      plugins: [mark]
    });
  });

  document.querySelectorAll('canvas[data-kind="seconds"]').forEach(function (canvas) {
    const s = data.seconds[canvas.dataset.cell];
    const length = Math.max(s.a_responses.length, s.b_responses.length, s.a_origin.length, s.b_origin.length);
    const labels = Array.from({ length: length }, function (_, i) { return String(i); });
    function line(label, values, color, dashed) {
      return { label: label, data: values, borderColor: color, backgroundColor: color, borderWidth: 2,
        pointRadius: 0, borderDash: dashed ? [6, 4] : [], tension: 0 };
    }
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: labels,
        datasets: [
          line('A requests/s', s.a_responses, A, false),
          line('B requests/s', s.b_responses, B, false),
          line('A origin/s', s.a_origin, A, true),
          line('B origin/s', s.b_origin, B, true)
        ]
      },
      options: {
        plugins: { title: { display: true, text: canvas.dataset.cell + ': per second of the first repeat' } },
        scales: { x: { title: { display: true, text: 's' } }, y: { beginAtZero: true } }
      },
      plugins: [mark]
    });
  });
}());
