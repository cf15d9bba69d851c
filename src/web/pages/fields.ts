import { formatMessage } from '../../i18n/index.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';

/**
 * The pieces every form is made of (docs/ui.md, "Forms"): a label above the
 * field, a hint below it, and a slot for its error that /ui/form.js fills
 * (and links from aria-describedby while it shows). The summary at the top
 * of a form is a live region, so what the script writes into it is read out.
 */
export interface TextFieldOptions {
  id: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  name?: string;
  autocomplete?: string;
  required?: boolean;
  hint?: string | null;
  value?: string | null;
  maxLength?: number;
  minLength?: number;
  readOnly?: boolean;
  /** Overrides the input element (the password field wraps it with its toggle). */
  control?: SafeHtml;
}

function describedBy(id: string, hint: string | null | undefined): string | null {
  return hint ? `${id}-hint` : null;
}

function input(options: TextFieldOptions): SafeHtml {
  const { id } = options;
  const described = describedBy(id, options.hint);
  return html`<input id="${id}" name="${options.name ?? id}" type="${options.type ?? 'text'}"${options.autocomplete && html` autocomplete="${options.autocomplete}"`}${options.required && html` required`}${options.minLength !== undefined && html` minlength="${options.minLength}"`}${options.maxLength !== undefined && html` maxlength="${options.maxLength}"`}${options.readOnly && html` readonly`}${options.value != null && html` value="${options.value}"`}${described && html` aria-describedby="${described}" data-describedby="${described}"`}${options.type === 'email' && html` spellcheck="false" autocapitalize="none"`}>`;
}

export function textField(options: TextFieldOptions): SafeHtml {
  const { id } = options;
  return html`
      <div class="field">
        <label for="${id}">${options.label}</label>
        ${options.control ?? input(options)}${
          options.hint &&
          html`
        <p class="hint" id="${id}-hint">${options.hint}</p>`
        }
        <p class="field-error" id="${id}-error" hidden></p>
      </div>`;
}

/** A password field with a show/hide toggle (the button appears once /ui/form.js runs: without it, it could do nothing). */
export function passwordField(context: PageContext, options: Omit<TextFieldOptions, 'type' | 'control'>): SafeHtml {
  const common = context.text.pages.common;
  const control = html`<div class="password-input">
          ${input({ ...options, type: 'password' })}
          <button type="button" class="toggle-password" aria-controls="${options.id}" aria-label="${common.showPasswordLabel}" data-show="${common.showPassword}" data-hide="${common.hidePassword}" data-show-label="${common.showPasswordLabel}" data-hide-label="${common.hidePasswordLabel}" hidden>${common.showPassword}</button>
        </div>`;
  return textField({ ...options, control });
}

/** The longest new password the API takes (the account routes answer VALIDATION_ERROR beyond it). */
export const newPasswordMaxLength = 256;

/** The password field of a new password, with the minimum as its hint. */
export function newPasswordField(context: PageContext, options: { id: string; label: string }): SafeHtml {
  const min = context.config.auth.passwordMinLength;
  return passwordField(context, {
    ...options,
    autocomplete: 'new-password',
    required: true,
    minLength: min,
    maxLength: newPasswordMaxLength,
    hint: formatMessage(context.text.pages.common.passwordHint, { min }),
  });
}

export function checkboxField(options: {
  id: string;
  name: string;
  value: string;
  label: SafeHtml;
  required?: boolean;
  requiredMessage?: string;
}): SafeHtml {
  return html`
      <div class="field checkbox">
        <input id="${options.id}" name="${options.name}" type="checkbox" value="${options.value}"${options.required && html` required`}${options.requiredMessage && html` data-required-message="${options.requiredMessage}"`}>
        <label for="${options.id}">${options.label}</label>
        <p class="field-error" id="${options.id}-error" hidden></p>
      </div>`;
}

/** The submit button: /ui/form.js shows `busyLabel` and disables it while the request is in flight. */
export function submitButton(label: string, busyLabel: string, variant: 'primary' | 'danger' = 'primary'): SafeHtml {
  return html`
      <button type="submit" class="${variant}" data-busy-label="${busyLabel}">${label}</button>`;
}

/** The error summary of a form (docs/ui.md, "Forms": summarised at the top in an aria-live region). */
export function errorSummary(
  id: string,
  title: string,
  serverError?: { code: string; message: string } | null,
): SafeHtml {
  const content = serverError ? html`<p data-code="${serverError.code}">${serverError.message}</p>` : '';
  return html`
      <div class="summary" id="${id}" role="alert" aria-live="assertive" tabindex="-1" data-title="${title}">${content}</div>`;
}

/** A polite live region for progress and success ("We sent a new link…"). */
export function statusRegion(id: string): SafeHtml {
  return html`
      <div class="notice" id="${id}" role="status" aria-live="polite"></div>`;
}
