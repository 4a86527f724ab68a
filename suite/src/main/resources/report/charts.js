'use strict';

// What every page of charts here shares (the report's and the comparison's), loaded after Chart.js
// and before the page's own script.

// An error anywhere is kept on the page, where a headless browser (the acceptance tests) reads it.
window.addEventListener('error', function (e) {
  document.body.dataset.error = String(e.message);
});

// Drawn at once, to the size of their boxes: a page read from file:// in a test, not an animation.
Chart.defaults.animation = false;
Chart.defaults.responsive = true;
Chart.defaults.maintainAspectRatio = false;

// After each drawing, the canvas says how many of its pixels are painted and how many data
// points it holds: a headless browser (the acceptance tests) tells a drawn chart from a blank one.
window.chartMark = {
  id: 'mark',
  afterRender: function (chart) {
    const canvas = chart.canvas;
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) {
      if (pixels[i] !== 0) {
        painted++;
      }
    }
    canvas.dataset.painted = String(painted);
    canvas.dataset.points = String(chart.data.datasets.reduce(function (n, d) {
      return n + d.data.filter(function (v) { return v !== null && v !== undefined; }).length;
    }, 0));
  }
};
