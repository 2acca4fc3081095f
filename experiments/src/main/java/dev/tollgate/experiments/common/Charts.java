package dev.tollgate.experiments.common;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/** Shared look of the result charts, and PNG output. */
public final class Charts {

    public static final Color NAIVE = new Color(0xD6, 0x4F, 0x3C);
    public static final Color TOLLGATE = new Color(0x2E, 0x6F, 0xB5);
    public static final Color BASELINE = new Color(0x88, 0x88, 0x88);
    public static final Color PEER = new Color(0xE0, 0x9A, 0x25);

    private Charts() {}

    public static void style(AxesChartStyler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(false);
        s.setLegendPosition(Styler.LegendPosition.InsideNW);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setAntiAlias(true);
    }

    public static void png(Chart<?, ?> chart, Path file) throws IOException {
        String name = file.toString();
        String base = name.endsWith(".png") ? name.substring(0, name.length() - 4) : name;
        BitmapEncoder.saveBitmapWithDPI(chart, base, BitmapEncoder.BitmapFormat.PNG, 110);
    }
}
