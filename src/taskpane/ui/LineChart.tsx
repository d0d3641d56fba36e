// The preview's small line chart: an inline SVG of what line-chart.ts computed. A missing value
// breaks the line (a lone value is a dot); the whole chart is one image to a screen reader,
// described by its first and last values, its range and its gaps.
import { lineChart, PREVIEW_BOX, type SeriesPoint } from "../line-chart";

export function LineChart({ points, label }: { points: SeriesPoint[]; label: string }) {
  const chart = lineChart(points, label);
  if (!chart) return <p className="chart-empty">No value of {label} to chart.</p>;
  const { width, height, padding } = PREVIEW_BOX;
  const bottom = height - padding.bottom;
  return (
    <svg className="line-chart" role="img" aria-label={chart.summary} viewBox={`0 0 ${width} ${height}`} width="100%">
      <line x1={padding.left} y1={bottom} x2={width - padding.right} y2={bottom} className="axis" />
      <line x1={padding.left} y1={padding.top} x2={padding.left} y2={bottom} className="axis" />
      {chart.yLabels.map((l) => (
        <text key={l.text} x={padding.left - 4} y={l.y + 4} textAnchor="end">
          {l.text}
        </text>
      ))}
      {chart.xLabels.map((l, i) => (
        <text key={l.text} x={l.x} y={height - 4} textAnchor={i === 0 ? "start" : "end"}>
          {l.text}
        </text>
      ))}
      {chart.runs.map((run) => (
        <polyline key={`${run[0].x},${run[0].y}`} points={run.map((p) => `${p.x},${p.y}`).join(" ")} className="series" />
      ))}
      {chart.dots.map((dot) => (
        <circle key={`${dot.x},${dot.y}`} cx={dot.x} cy={dot.y} r={2.5} className="dot" />
      ))}
    </svg>
  );
}
