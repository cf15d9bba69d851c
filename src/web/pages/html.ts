import { escapeHtml } from '../html-variables.js';

/** Markup that is already safe: `html` inserts it as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

/** Array.isArray does not narrow a readonly array type; this does. */
function isList(value: HtmlValue): value is readonly HtmlValue[] {
  return Array.isArray(value);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (isList(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

/**
 * The pages' one way of writing markup: every interpolated string is
 * escaped, nested `html` results and arrays of them are inserted as they
 * are, and null, undefined and booleans vanish (so `cond && html\`…\``
 * works). Text from the catalogue, the config or a request can therefore
 * never become markup by accident.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** A data block (`<script type="application/json">`): never executed, so the Content-Security-Policy allows it; `<` is escaped so it cannot close the element. */
export function jsonBlock(id: string, data: unknown): SafeHtml {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new SafeHtml(`<script type="application/json" id="${escapeHtml(id)}">${json}</script>`);
}
