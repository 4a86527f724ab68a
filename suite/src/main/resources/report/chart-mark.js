'use strict';

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
