import { formatMessage } from '../../../i18n/index.js';
import type { ConsoleOverview } from './console-views.js';
import { html, type SafeHtml } from '../html.js';
import type { PageContext } from '../page-context.js';
import { formatMoment, renderConsolePage, type ConsoleRequest } from './console-layout.js';

const width = 600;
const height = 180;
const top = 12;
const bottom = 2;

/**
 * The sign-ins per day as an SVG drawn here (no script, no chart library):
 * one bar per day scaled to the busiest, each with a <title> (its day and
 * count). The first and last day are text under it, outside the SVG, so
 * that they keep their size when the chart shrinks to a phone's width. Its
 * text alternative is the summary sentence; the colours come from console.css.
 */
function renderChart(context: PageContext, days: ConsoleOverview['signInsPerDay']): SafeHtml {
  const t = context.text.admin.overview;
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const slot = width / days.length;
  const plot = height - top - bottom;
  const bars = days.map((d, i) => {
    const barHeight = Math.round((d.count / max) * plot * 10) / 10;
    const x = Math.round((i * slot + slot * 0.15) * 10) / 10;
    const y = Math.round((top + plot - barHeight) * 10) / 10;
    const w = Math.round(slot * 0.7 * 10) / 10;
    return html`<rect class="bar" x="${x}" y="${y}" width="${w}" height="${barHeight}"><title>${formatMessage(t.dayCount, { day: d.day, count: d.count })}</title></rect>`;
  });
  const summary = formatMessage(t.chartSummary, { total, max: Math.max(...days.map((d) => d.count), 0) });
  return html`<svg class="chart" id="sign-in-chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-summary">
            <title id="chart-title">${t.chartTitle}</title>
            <desc id="chart-summary">${summary}</desc>
            <line class="axis" x1="0" y1="${top + plot}" x2="${width}" y2="${top + plot}"></line>
            ${bars}
          </svg>
          <p class="chart-axis"><span>${days[0]?.day}</span><span>${days.at(-1)?.day}</span></p>
          <p class="hint">${summary}</p>`;
}

/** /admin: the Overview (AdminOverviewService). */
export function renderConsoleOverviewPage(
  context: PageContext,
  request: ConsoleRequest,
  overview: ConsoleOverview,
): string {
  const t = context.text.admin.overview;
  const total = overview.signInsPerDay.reduce((sum, d) => sum + d.count, 0);
  const number = (value: number) => value.toLocaleString(context.locale);
  const figures: [string, string, string][] = [
    ['figure-sign-ins', t.signIns, number(total)],
    ['figure-failed', t.failedSignIns, number(overview.failedSignIns)],
    ['figure-sessions', t.activeSessions, number(overview.activeSessions)],
    [
      'figure-last-apply',
      t.lastApply,
      overview.lastApply === null ? t.neverApplied : formatMoment(context, overview.lastApply.time),
    ],
  ];
  const body = html`        <h1>${t.heading}</h1>
        <dl class="figures">${figures.map(([id, name, value]) => html`<div><dt>${name}</dt><dd id="${id}">${value}</dd></div>`)}</dl>
        <section class="panel" aria-labelledby="chart-heading">
          <h2 id="chart-heading">${t.chartTitle}</h2>
          ${renderChart(context, overview.signInsPerDay)}
        </section>${
          overview.drift !== undefined &&
          html`
        <section class="panel" id="overview-drift" aria-labelledby="drift-heading">
          <h2 id="drift-heading">${t.drift}</h2>
          <p>${driftSentence(context, overview.drift)}</p>
        </section>`
        }`;
  return renderConsolePage(context, request, { section: 'overview', task: t.task, body });
}

function driftSentence(context: PageContext, drift: ConsoleOverview['drift']): string {
  const t = context.text.admin.overview;
  if (!drift) return t.driftNotChecked;
  const checked = formatMessage(t.driftChecked, { time: formatMoment(context, drift.checkedAt) });
  if (drift.inSync) return `${t.inSync} ${checked}`;
  if (drift.changes < 0) return `${t.driftCollision} ${checked}`;
  return `${formatMessage(t.driftChanges, { count: drift.changes })} ${checked}`;
}
