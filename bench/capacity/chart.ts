/**
 * The curves of a run as one SVG: a grid of small line charts over the offered rate. No charting
 * library is a dependency of the project and these are plain polylines, so it writes the SVG
 * itself.
 */
import { KNEE, type Step } from "./report.ts";

interface Series {
  name: string;
  values: number[];
  /** A bound rather than a measure: drawn dashed. */
  bound?: boolean;
}

interface Panel {
  title: string;
  series: Series[];
  /** A logarithmic axis, for measures that span decades (milliseconds to tens of seconds once a step collapses). */
  log?: boolean;
}

const WIDTH = 360;
const HEIGHT = 236;
const MARGIN = { left: 52, right: 12, top: 28, bottom: 72 };
const COLUMNS = 3;
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const label = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

/** A panel at (x, y): axes, ticks, one polyline a series (finite values only), and its legend. */
function panel({ title, series, log = false }: Panel, rates: number[], x: number, y: number): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const finite = series.flatMap((one) => one.values.filter((value) => Number.isFinite(value) && (!log || value > 0)));
  const maxRate = Math.max(...rates);
  // Linear: 0 to a tenth above the largest value; log: whole decades around the values.
  const bottom = log ? 10 ** Math.floor(Math.log10(Math.min(...finite, 1))) : 0;
  const top = log ? 10 ** Math.ceil(Math.log10(Math.max(...finite, bottom * 10))) : Math.max(...finite, 0) * 1.1 || 1;
  const scale = (value: number) => (log ? Math.log10(Math.max(value, bottom) / bottom) / Math.log10(top / bottom) : value / top);
  const ticks = log
    ? Array.from({ length: Math.round(Math.log10(top / bottom)) + 1 }, (_, power) => bottom * 10 ** power)
    : [0, 0.5, 1].map((fraction) => (top / 1.1) * fraction);
  const px = (rate: number) => x + MARGIN.left + (rate / maxRate) * plotWidth;
  const py = (value: number) => y + MARGIN.top + plotHeight - Math.min(scale(value), 1) * plotHeight;
  const parts = [
    `<text x="${x + MARGIN.left}" y="${y + 16}" font-size="13" font-weight="bold">${escape(title)}</text>`,
    `<line x1="${px(0)}" y1="${py(bottom)}" x2="${px(maxRate)}" y2="${py(bottom)}" stroke="#333"/>`,
    `<line x1="${px(0)}" y1="${py(bottom)}" x2="${px(0)}" y2="${py(top)}" stroke="#333"/>`,
  ];
  for (const value of ticks) parts.push(`<text x="${px(0) - 4}" y="${py(value) + 4}" font-size="10" text-anchor="end">${label(value)}</text>`);
  for (const rate of rates) parts.push(`<text x="${px(rate)}" y="${py(bottom) + 14}" font-size="10" text-anchor="middle">${rate}</text>`);
  parts.push(`<text x="${px(maxRate / 2)}" y="${py(bottom) + 28}" font-size="10" text-anchor="middle">offered operations/s</text>`);
  series.forEach((one, index) => {
    const colour = COLOURS[index % COLOURS.length];
    const points = one.values.flatMap((value, step) => (Number.isFinite(value) && (!log || value > 0) ? [`${px(rates[step] ?? 0).toFixed(1)},${py(value).toFixed(1)}`] : []));
    const dash = one.bound ? ' stroke-dasharray="5,4"' : "";
    parts.push(`<polyline points="${points.join(" ")}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`);
    if (!one.bound) for (const point of points) parts.push(`<circle cx="${point.split(",")[0]}" cy="${point.split(",")[1]}" r="2.5" fill="${colour}"/>`);
    const legendX = x + MARGIN.left + (index % 2) * (plotWidth / 2);
    const legendY = py(bottom) + 46 + Math.floor(index / 2) * 13;
    parts.push(`<line x1="${legendX}" y1="${legendY - 3}" x2="${legendX + 14}" y2="${legendY - 3}" stroke="${colour}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${legendX + 18}" y="${legendY}" font-size="10">${escape(one.name)}</text>`);
  });
  return parts.join("\n");
}

/** The run's curves: throughput, latency, lags, event loop and CPU, each over the offered rate. */
export function capacityChart(steps: Step[], title: string): string {
  const rates = steps.map((step) => step.offered);
  const of = (pick: (step: Step) => number) => steps.map(pick);
  const panels: Panel[] = [
    { title: "Throughput (operations/s)", series: [{ name: "achieved", values: of((s) => s.achieved) }, { name: "offered", values: rates, bound: true }] },
    {
      title: "Latency the platform adds (ms, log)",
      log: true,
      series: [
        { name: "p50", values: of((s) => s.addedP50Ms) },
        { name: "p99", values: of((s) => s.addedP99Ms) },
        { name: "bare durable sale p99", values: of((s) => s.referenceAddedP99Ms) },
        { name: `${KNEE.addedP99OfReference} × bare p99 (bound)`, values: of((s) => KNEE.addedP99OfReference * s.referenceAddedP99Ms), bound: true },
      ],
    },
    { title: "End-to-end p99 (ms, log)", log: true, series: [{ name: "service", values: of((s) => s.endToEndP99Ms) }, { name: "bare durable sale", values: of((s) => s.referenceEndToEndP99Ms) }] },
    {
      title: "Lag p99 (s, log)",
      log: true,
      series: [
        { name: "projection", values: of((s) => s.projectionLagP99Seconds) },
        { name: "webhook", values: of((s) => s.webhookLagP99Seconds) },
        { name: "projection bound", values: of(() => KNEE.projectionLagP99Seconds), bound: true },
        { name: "webhook bound", values: of(() => KNEE.webhookLagP99Seconds), bound: true },
      ],
    },
    { title: "Service event-loop utilization (%)", series: [{ name: "ELU", values: of((s) => s.eventLoopUtilization * 100) }] },
    {
      title: "CPU per operation (ms, every process)",
      series: [
        { name: "total", values: of((s) => s.cpuMsPerOperation.total) },
        { name: "service", values: of((s) => s.cpuMsPerOperation.service) },
        { name: "PostgreSQL", values: of((s) => s.cpuMsPerOperation.postgres) },
      ],
    },
  ];
  const rows = Math.ceil(panels.length / COLUMNS);
  const width = WIDTH * COLUMNS;
  const height = HEIGHT * rows + 30;
  const body = panels.map((one, index) => panel(one, rates, (index % COLUMNS) * WIDTH, 30 + Math.floor(index / COLUMNS) * HEIGHT));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="12" y="20" font-size="15" font-weight="bold">${escape(title)}</text>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}
