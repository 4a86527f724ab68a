package dev.ratecache.suite.report;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The per-plan bar charts as PNG files, for report.md: a Markdown viewer runs no scripts, so
 * index.html's charts cannot show there. Drawn from the same {@link ChartData.BarChart}s as
 * index.html's, in the same colours.
 */
final class PngCharts {
    private PngCharts() {}

    static void write(List<ChartData.BarChart> charts, Path folder) throws IOException {
        Files.createDirectories(folder);
        for (ChartData.BarChart c : charts) {
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            for (int i = 0; i < c.labels().size(); i++) {
                data.addValue(c.measured().get(i), "measured", c.labels().get(i));
                if (c.reference() != null) {
                    data.addValue(c.reference().get(i), c.referenceLabel(), c.labels().get(i));
                }
            }
            JFreeChart chart = ChartFactory.createBarChart(c.plan() + ": " + c.axis() + " per cell", null, c.axis(), data,
                    PlotOrientation.VERTICAL, true, false, false);
            chart.setBackgroundPaint(Color.WHITE);
            chart.getLegend().setVisible(c.reference() != null);
            chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
            CategoryPlot plot = chart.getCategoryPlot();
            plot.setBackgroundPaint(Color.WHITE);
            plot.setOutlineVisible(false);
            plot.setRangeGridlinePaint(new Color(0xe2e8f0));
            plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
            BarRenderer bars = (BarRenderer) plot.getRenderer();
            bars.setBarPainter(new StandardBarPainter());
            bars.setSeriesPaint(0, Color.decode(c.color()));
            bars.setSeriesPaint(1, Color.decode(ChartData.REFERENCE_COLOR));
            bars.setShadowVisible(false);
            bars.setItemMargin(0.05);
            ChartUtils.saveChartAsPNG(folder.resolve(c.file()).toFile(), chart, 900, 500);
        }
    }
}
