// Draws index.html's charts with Chart.js (assets/chart.umd.js) from the JSON in <script id="data">:
// per plan, one bar chart per figure over that plan's cells; per cell, its timeline second by second.
// Everything it needs is in the run folder, so the page works from file:// with no network.
(function () {
  'use strict';

  const COLORS = {
    offered: '#3182ce',
    ok: '#38a169',
    rejected: '#dd6b20',
    other: '#c53030',
    origin: '#1a202c',
    hit: '#319795',
    miss: '#d69e2e',
    edgeOther: '#a0aec0',
    client: '#805ad5',
    p50: '#3182ce',
    p95: '#9f7aea'
  };

  // The error listener and the shared defaults are in charts.js, loaded before this.
  const data = JSON.parse(document.getElementById('data').textContent);

  Chart.defaults.color = '#4a5568';
  Chart.defaults.borderColor = '#e2e8f0';
  Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", "Liberation Sans", sans-serif';
  Chart.defaults.plugins.legend.position = 'bottom';
  Chart.defaults.plugins.legend.labels.boxWidth = 12;
  Chart.defaults.plugins.legend.labels.boxHeight = 12;
  // In dataset order (answers, then the lines drawn over them), not in drawing order.
  Chart.defaults.plugins.legend.labels.sort = function (a, b) { return a.datasetIndex - b.datasetIndex; };
  // A line's key is a short line in its colour, a bar's a square, whatever the line's dashes and points.
  const defaultLabels = Chart.defaults.plugins.legend.labels.generateLabels;
  Chart.defaults.plugins.legend.labels.usePointStyle = true;
  Chart.defaults.plugins.legend.labels.generateLabels = function (chart) {
    return defaultLabels(chart).map(function (item) {
      const dataset = chart.data.datasets[item.datasetIndex];
      if ((dataset.type || chart.config.type) === 'line') {
        item.pointStyle = 'line';
        item.strokeStyle = dataset.borderColor;
        item.lineWidth = 3;
        item.lineDash = [];
      } else {
        item.pointStyle = 'rect';
      }
      return item;
    });
  };
  Chart.defaults.plugins.title.font = { size: 14, weight: '600' };
  Chart.defaults.plugins.title.color = '#1a202c';

  // The canvas says what it drew (charts.js, shared with the comparison's page).
  const mark = window.chartMark;

  function format(value, decimals) {
    return value === null || value === undefined ? 'n/a'
      : Number(value).toLocaleString('en', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  }

  // Within a plan's chart the plan is known: "stress/no-caching" reads "no-caching".
  function shortName(cell) {
    const slash = cell.indexOf('/');
    return slash < 0 ? cell : cell.substring(slash + 1);
  }

  function barChart(canvas, plan, chart) {
    const datasets = [{
      label: 'measured',
      data: chart.measured,
      backgroundColor: chart.color,
      borderRadius: 3,
      maxBarThickness: 56
    }];
    if (chart.reference) {
      datasets.push({
        label: chart.referenceLabel,
        data: chart.reference,
        backgroundColor: data.referenceColor,
        borderRadius: 3,
        maxBarThickness: 56
      });
    }
    const axis = chart.unit ? chart.title + ' (' + chart.unit + ')' : chart.title;
    new Chart(canvas, {
      type: 'bar',
      data: { labels: chart.labels.map(shortName), datasets: datasets },
      options: {
        plugins: {
          title: { display: true, text: plan + ': ' + axis },
          // Bars of height 0 look like a chart that failed to draw: say so.
          subtitle: {
            display: chart.measured.every(function (v) { return v === 0; }),
            text: '0 for every cell',
            padding: { bottom: 6 }
          },
          legend: { display: datasets.length > 1 },
          tooltip: {
            callbacks: {
              title: function (items) { return chart.labels[items[0].dataIndex]; },
              label: function (item) {
                return item.dataset.label + ': ' + format(item.parsed.y, chart.decimals) + (chart.unit ? ' ' + chart.unit : '');
              }
            }
          }
        },
        scales: {
          x: { grid: { display: false }, ticks: { autoSkip: false, maxRotation: 35 } },
          y: { beginAtZero: true, title: { display: true, text: axis } }
        }
      },
      plugins: [mark]
    });
  }

  function seconds(timeline) {
    const labels = [];
    for (let i = 0; i < timeline.seconds; i++) {
      labels.push(i);
    }
    return labels;
  }

  function timeAxis() {
    return {
      stacked: true,
      grid: { display: false },
      title: { display: true, text: 'seconds since the first request' },
      ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 12 }
    };
  }

  function bars(label, values, color) {
    return { type: 'bar', label: label, data: values, backgroundColor: color, stack: 'answers', order: 2,
      barPercentage: 1, categoryPercentage: 0.9 };
  }

  function line(label, values, color, stack, dashed) {
    return { type: 'line', label: label, data: values, borderColor: color, backgroundColor: color, stack: stack,
      order: 1, borderWidth: 2, pointRadius: values.length > 60 ? 0 : 2, tension: 0, spanGaps: false,
      borderDash: dashed ? [6, 4] : [] };
  }

  function countOptions(title) {
    return {
      interaction: { mode: 'index', intersect: false },
      plugins: {
        title: { display: true, text: title },
        tooltip: {
          callbacks: {
            title: function (items) { return 'second ' + items[0].label; },
            label: function (item) { return item.dataset.label + ': ' + format(item.parsed.y, 0) + ' requests'; }
          }
        }
      },
      scales: {
        x: timeAxis(),
        y: { stacked: true, beginAtZero: true, title: { display: true, text: 'requests per second' }, ticks: { precision: 0 } }
      }
    };
  }

  function requestsChart(canvas, t) {
    const s = t.series;
    const datasets = [
      bars('answered 2xx', s.answered_2xx, COLORS.ok),
      bars('rejected (429/503)', s.rejected, COLORS.rejected),
      bars('other errors', s.other_errors, COLORS.other),
      line('offered', s.offered, COLORS.offered, 'offered', true)
    ];
    if (s.origin) {
      datasets.push(line('reached the origin', s.origin, COLORS.origin, 'origin', false));
    }
    new Chart(canvas, {
      type: 'bar',
      data: { labels: seconds(t), datasets: datasets },
      options: countOptions('Requests per second'),
      plugins: [mark]
    });
  }

  function cachesChart(canvas, t) {
    const s = t.series;
    const candidates = [
      s.edge_hit && bars('edge HIT', s.edge_hit, COLORS.hit),
      s.edge_miss && bars('edge MISS', s.edge_miss, COLORS.miss),
      s.edge_other && bars('edge, other (EXPIRED, UPDATING, ...)', s.edge_other, COLORS.edgeOther),
      line('client-cache hits', s.client_cache_hits, COLORS.client, 'client', false)
    ];
    // Only the caches that answered: a cell without a client cache shows no flat line for one.
    const datasets = candidates.filter(function (d) {
      return d && d.data.some(function (v) { return v > 0; });
    });
    new Chart(canvas, {
      type: 'bar',
      data: { labels: seconds(t), datasets: datasets },
      options: countOptions('Cache answers per second'),
      plugins: [mark]
    });
  }

  function latencyChart(canvas, t) {
    const s = t.series;
    new Chart(canvas, {
      type: 'line',
      data: {
        labels: seconds(t),
        datasets: [
          line('p50', s.p50_ms, COLORS.p50, 'p50', false),
          line('p95', s.p95_ms, COLORS.p95, 'p95', false)
        ]
      },
      options: {
        interaction: { mode: 'index', intersect: false },
        plugins: {
          title: { display: true, text: 'Latency of the requests ending each second' },
          tooltip: {
            callbacks: {
              title: function (items) { return 'second ' + items[0].label; },
              label: function (item) { return item.dataset.label + ': ' + format(item.parsed.y, 0) + ' ms'; }
            }
          }
        },
        scales: {
          x: timeAxis(),
          y: { beginAtZero: true, title: { display: true, text: 'latency (ms)' } }
        }
      },
      plugins: [mark]
    });
  }

  // The origin's database pool, read once a second: connections lent to requests, requests waiting for one.
  function poolChart(canvas, t) {
    const s = t.series;
    const options = countOptions('Database pool, read once a second');
    options.scales.x.stacked = false;
    options.scales.y.stacked = false;
    options.scales.y.title.text = 'connections / requests';
    options.plugins.tooltip.callbacks.label = function (item) {
      return item.dataset.label + ': ' + format(item.parsed.y, 0);
    };
    // A second whose reading failed (the origin busy) is bridged, not a break in the line.
    const datasets = [
      line('connections lent to requests', s.db_active, COLORS.origin, 'active', false),
      line('requests waiting for one', s.db_pending, COLORS.rejected, 'pending', true)
    ].map(function (d) { d.spanGaps = true; return d; });
    new Chart(canvas, {
      type: 'line',
      data: { labels: seconds(t), datasets: datasets },
      options: options,
      plugins: [mark]
    });
  }

  // A keys cell: each tier's admitted (solid) and rejected (dashed) requests per second, one colour per tier.
  const TIER_COLORS = ['#3182ce', '#38a169', '#805ad5', '#d69e2e', '#319795', '#c53030', '#1a202c'];
  function tiersChart(canvas, t) {
    const datasets = [];
    Object.keys(t.tiers).forEach(function (name, i) {
      const color = TIER_COLORS[i % TIER_COLORS.length];
      const lineOf = function (label, values, dashed) {
        return { type: 'line', label: label, data: values, borderColor: color, backgroundColor: color, order: 1,
          borderWidth: 2, pointRadius: values.length > 60 ? 0 : 2, tension: 0, borderDash: dashed ? [6, 4] : [] };
      };
      datasets.push(lineOf(name + ' admitted', t.tiers[name].admitted, false));
      datasets.push(lineOf(name + ' rejected', t.tiers[name].rejected, true));
    });
    const options = countOptions('Per tier: admitted and rejected per second');
    options.scales.x.stacked = false;
    options.scales.y.stacked = false;
    new Chart(canvas, {
      type: 'line',
      data: { labels: seconds(t), datasets: datasets },
      options: options,
      plugins: [mark]
    });
  }

  const plans = {};
  data.plans.forEach(function (p) { plans[p.name] = p; });

  document.querySelectorAll('canvas[data-kind="bar"]').forEach(function (canvas) {
    const plan = plans[canvas.dataset.plan];
    const chart = plan.charts.find(function (c) { return c.metric === canvas.dataset.metric; });
    barChart(canvas, plan.name, chart);
  });

  const draw = { requests: requestsChart, caches: cachesChart, latency: latencyChart, tiers: tiersChart, pool: poolChart };
  document.querySelectorAll('canvas[data-cell]').forEach(function (canvas) {
    const kind = canvas.dataset.kind;
    draw[kind](canvas, (kind === 'tiers' ? data.tierTimelines : data.timelines)[canvas.dataset.cell]);
  });

  document.body.dataset.charts = String(document.querySelectorAll('canvas[data-painted]').length);
})();
