// @ts-check
import { format, pageData } from './api.js';

/**
 * How every form of the built-in pages behaves (docs/ui.md, "Forms"):
 * checked in the browser first (required, e-mail, minimum length), errors
 * next to their field and summarised at the top in a live region, focus on
 * the first error, the submit button disabled with progress while the
 * request is in flight (a second submit sends nothing), and the API's
 * error codes as sentences of the page's language, the code kept in
 * data-code. 429 says when to try again, from Retry-After.
 */

/**
 * One problem to show. `field` gets the message next to it; `invalid` are
 * only marked (aria-invalid), e.g. both fields of a wrong sign-in.
 * @typedef {{ message: string, code?: string, field?: HTMLElement | null, invalid?: HTMLElement[] }} FormProblem
 * @typedef {import('./api.js').ApiResult} ApiResult
 * @typedef {Extract<ApiResult, { ok: false }>} ApiFailure
 */

const data = pageData();

/**
 * Retry-After (RFC 9110 §10.2.3) as seconds from now: delay-seconds or an HTTP date.
 * @param {string | null} header
 * @returns {number | null}
 */
export function retryAfterSeconds(header) {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * "30 seconds", "5 minutes", in the page's language.
 * @param {number} seconds
 */
function duration(seconds) {
  const [value, unit] = seconds < 90 ? [Math.max(1, seconds), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(data.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/**
 * The sentence for an API error.
 * @param {ApiFailure} result
 */
export function errorMessage(result) {
  if (result.status === 429) {
    const seconds = retryAfterSeconds(result.retryAfter);
    return seconds === null ? data.errors.TOO_MANY_REQUESTS : format(data.common.retryIn, { time: duration(seconds) });
  }
  return Object.hasOwn(data.errors, result.code) ? data.errors[result.code] : data.errors.fallback;
}

/**
 * @param {HTMLElement} element
 * @param {boolean} invalid
 */
function markInvalid(element, invalid) {
  if (invalid) element.setAttribute('aria-invalid', 'true');
  else element.removeAttribute('aria-invalid');
}

/**
 * @param {HTMLElement} field
 * @param {string | null} message
 * @param {string | undefined} code
 */
function setFieldError(field, message, code) {
  const slot = document.getElementById(field.id + '-error');
  const base = field.dataset.describedby ?? '';
  markInvalid(field, message !== null);
  if (!slot) return;
  slot.textContent = message ?? '';
  slot.hidden = message === null;
  if (code) slot.dataset.code = code;
  else delete slot.dataset.code;
  const described = message === null ? base : `${base} ${slot.id}`.trim();
  if (described) field.setAttribute('aria-describedby', described);
  else field.removeAttribute('aria-describedby');
}

/**
 * @param {HTMLElement} container
 * @param {HTMLElement} summary
 */
export function clearProblems(container, summary) {
  for (const field of container.querySelectorAll('[aria-invalid]'))
    setFieldError(/** @type {HTMLElement} */ (field), null, undefined);
  summary.replaceChildren();
}

/**
 * Shows problems next to their fields and in the summary, then moves focus
 * to the first one (its field, else the summary), unless the user did not
 * just act (a page that fails to load its data).
 * @param {HTMLElement} container
 * @param {HTMLElement} summary
 * @param {FormProblem[]} problems
 * @param {{ focus?: boolean }} [options]
 */
export function showProblems(container, summary, problems, options = {}) {
  clearProblems(container, summary);
  if (problems.length === 0) return;
  for (const problem of problems) {
    if (problem.field) setFieldError(problem.field, problem.message, problem.code);
    for (const element of problem.invalid ?? []) markInvalid(element, true);
  }
  if (problems.length === 1) {
    const line = document.createElement('p');
    line.textContent = problems[0].message;
    if (problems[0].code) line.dataset.code = problems[0].code;
    summary.append(line);
  } else {
    const title = document.createElement('p');
    title.className = 'summary-title';
    title.textContent = summary.dataset.title ?? data.common.errorSummary;
    const list = document.createElement('ul');
    for (const problem of problems) {
      const item = document.createElement('li');
      const target = problem.field ? document.createElement('a') : item;
      if (problem.field) {
        const field = problem.field;
        /** @type {HTMLAnchorElement} */ (target).href = '#' + field.id;
        target.addEventListener('click', (event) => {
          event.preventDefault();
          field.focus();
        });
        item.append(target);
      }
      target.textContent = problem.message;
      if (problem.code) target.dataset.code = problem.code;
      list.append(item);
    }
    summary.append(title, list);
  }
  if (options.focus === false) return;
  const first = problems[0];
  const focusTarget = first.field ?? first.invalid?.[0] ?? summary;
  focusTarget.focus();
}

/**
 * What the browser can tell before sending: required fields, e-mail
 * addresses and minimum lengths, in document order.
 * @param {HTMLFormElement} form
 * @returns {FormProblem[]}
 */
export function checkFields(form) {
  /** @type {FormProblem[]} */
  const problems = [];
  for (const element of form.elements) {
    if (
      !(element instanceof HTMLInputElement) ||
      element.type === 'hidden' ||
      element.hidden ||
      element.disabled ||
      element.readOnly
    )
      continue;
    const message = fieldProblem(element);
    if (message) problems.push({ field: element, message });
  }
  return problems;
}

/** @param {HTMLInputElement} input */
function fieldProblem(input) {
  if (input.type === 'checkbox')
    return input.required && !input.checked ? (input.dataset.requiredMessage ?? data.common.fieldRequired) : null;
  // A revealed password (./frame.js) is a text input for the moment, still a password.
  const password = input.closest('.password-input') !== null;
  const value = password ? input.value : input.value.trim();
  if (value === '') {
    if (!input.required) return null;
    if (input.type === 'email') return data.common.emailRequired;
    return password ? data.common.passwordRequired : data.common.fieldRequired;
  }
  if (input.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return data.common.emailInvalid;
  if (input.minLength > 0 && value.length < input.minLength)
    return format(data.common.passwordTooShort, { min: input.minLength });
  return null;
}

/**
 * Progress on a button: its busy label, disabled, aria-busy on its form.
 * @param {HTMLButtonElement} button
 * @param {boolean} busy
 */
export function setBusy(button, busy) {
  const label = button.dataset.busyLabel;
  if (busy) {
    button.dataset.idleLabel = button.textContent ?? '';
    if (label) button.textContent = label;
  } else if (button.dataset.idleLabel !== undefined) {
    button.textContent = button.dataset.idleLabel;
  }
  button.disabled = busy;
  button.classList.toggle('busy', busy);
  button.form?.setAttribute('aria-busy', String(busy));
}

/**
 * The API's answer as problems: validation details on their fields (by
 * name), a code the page ties to a field, or one line in the summary.
 * @param {HTMLFormElement} form
 * @param {ApiFailure} result
 * @param {Record<string, HTMLElement | null | undefined>} fieldFor code → the field it concerns
 * @returns {FormProblem[]}
 */
export function apiProblems(form, result, fieldFor = {}) {
  if (result.code === 'VALIDATION_ERROR') {
    const fields = result.details.flatMap((detail) => {
      const name = detail.path.split('.').at(-1) ?? '';
      const field = form.elements.namedItem(name);
      return field instanceof HTMLElement ? [{ field, message: data.common.fieldInvalid, code: result.code }] : [];
    });
    if (fields.length > 0) return fields;
  }
  return [{ message: errorMessage(result), code: result.code, field: fieldFor[result.code] ?? null }];
}

/**
 * Wires a form: on submit, checks its fields, then sends once, with
 * progress, and hands the answer to the page. `onSuccess` returns true
 * when the page navigates away (the button then stays busy); `onFailure`
 * may return problems of its own instead of the standard ones.
 * @param {HTMLFormElement} form
 * @param {{
 *   send: () => Promise<ApiResult>,
 *   onSuccess: (result: Extract<ApiResult, { ok: true }>) => boolean | void | Promise<boolean | void>,
 *   onFailure?: (result: ApiFailure) => FormProblem[] | void,
 *   fieldFor?: Record<string, HTMLElement | null | undefined>,
 *   check?: () => FormProblem[],
 * }} options
 */
export function enhanceForm(form, options) {
  const summary = /** @type {HTMLElement} */ (form.querySelector('.summary'));
  const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));
  let inFlight = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (inFlight) return;
    const problems = [...checkFields(form), ...(options.check?.() ?? [])];
    if (problems.length > 0) {
      showProblems(form, summary, problems);
      return;
    }
    clearProblems(form, summary);
    inFlight = true;
    setBusy(button, true);
    const result = await options.send();
    if (result.ok) {
      const navigating = await options.onSuccess(result);
      inFlight = false;
      if (!navigating) setBusy(button, false);
      return;
    }
    inFlight = false;
    setBusy(button, false);
    showProblems(form, summary, options.onFailure?.(result) ?? apiProblems(form, result, options.fieldFor));
  });
}
