import type { TermVersionStatus } from '../../../accounts/user-terms.js';
import { html } from '../html.js';
import type { PageContext } from '../page-context.js';
import { renderConsolePage, type ConsoleRequest } from './console-layout.js';

/** /admin/terms: each term at its current version with how many live users accepted it (GET /api/admin/terms's figures). */
export function renderConsoleTermsPage(
  context: PageContext,
  request: ConsoleRequest,
  terms: readonly TermVersionStatus[],
): string {
  const t = context.text.admin.terms;
  const number = (value: number) => value.toLocaleString(context.locale);
  const rows = terms.map(
    (term) => html`
              <tr>
                <td data-label="${t.term}" class="mono">${term.id}</td>
                <td data-label="${t.version}" class="mono">${term.version}</td>
                <td data-label="${t.required}">${term.required ? t.yes : t.no}</td>
                <td data-label="${t.accepted}">${number(term.accepted)}</td>
                <td data-label="${t.pending}">${number(term.pending)}</td>
              </tr>`,
  );
  const body = html`        <h1>${t.heading}</h1>
        <p>${t.intro}</p>
        <section class="panel">${
          terms.length === 0
            ? html`
          <p>${t.none}</p>`
            : html`
          <table class="console-table" id="terms-table">
            <thead><tr><th scope="col">${t.term}</th><th scope="col">${t.version}</th><th scope="col">${t.required}</th><th scope="col">${t.accepted}</th><th scope="col">${t.pending}</th></tr></thead>
            <tbody>${rows}</tbody>
          </table>`
        }
        </section>`;
  return renderConsolePage(context, request, { section: 'terms', task: t.task, body });
}
