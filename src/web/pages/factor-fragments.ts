import { formatMessage } from '../../i18n/index.js';
import { errorSummary, statusRegion, submitButton, textField } from './fields.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';

/**
 * The pieces of second-factor pages that /login/second-factor (enrolment
 * at sign-in) and /account share, driven by /ui/factor-setup.js: a code
 * field, the authenticator app's setup (QR code, key, first code), the
 * recovery codes shown once, and the creation of a passkey. Each appears at
 * most once on a page, so their element ids are fixed.
 */

/** A 6-digit code field: digits on a phone's keypad, and the browser may fill it from an SMS or a password manager. */
export function codeField(options: { id: string; label: string; hint: string }): SafeHtml {
  const { id } = options;
  return html`
      <div class="field">
        <label for="${id}">${options.label}</label>
        <input id="${id}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required maxlength="7" spellcheck="false" class="code-input" aria-describedby="${id}-hint" data-describedby="${id}-hint" data-code-digits="6">
        <p class="hint" id="${id}-hint">${options.hint}</p>
        <p class="field-error" id="${id}-error" hidden></p>
      </div>`;
}

/** The app's setup: the button that starts it, then the QR code (drawn by this server), the key as text, and the first code. */
export function authenticatorAppSetup(context: PageContext): SafeHtml {
  const t = context.text.pages.factors;
  return html`
      <div id="app-start-box" class="inline-action">
        <div class="summary" id="app-start-summary" role="alert" aria-live="assertive" tabindex="-1"></div>
        <button type="button" id="app-start" class="secondary" data-busy-label="${t.appStarting}">${t.appStart}</button>
      </div>
      <div id="app-setup" class="factor-setup" hidden>
        <p>${t.scan}</p>
        <img id="app-qr" class="qr-code" width="200" height="200" alt="${formatMessage(t.qrAlt, { brand: context.config.branding.name })}">
        <p>${t.manual}</p>
        <p><code id="app-secret" class="secret-key"></code></p>
        <form id="app-confirm-form" class="form" method="post" novalidate>${errorSummary('app-confirm-summary', context.text.pages.common.errorSummary)}${codeField({ id: 'app-code', label: t.confirmLabel, hint: t.confirmHint })}
          <div class="actions">
            <button type="button" id="app-cancel" class="secondary">${t.cancel}</button>${submitButton(t.confirm, t.confirming)}
          </div>
        </form>
      </div>`;
}

/** The recovery codes, shown once: Copy and Download, and the button that says they are saved. */
export function recoveryCodesReveal(context: PageContext): SafeHtml {
  const t = context.text.pages.factors;
  return html`
      <div id="codes-reveal" class="codes-reveal" hidden>
        <h3 id="codes-heading" tabindex="-1">${t.codesHeading}</h3>
        <p>${t.codesIntro}</p>
        <ol id="codes-list" class="recovery-codes"></ol>
        <div class="actions">
          <button type="button" id="codes-copy" class="secondary">${t.copy}</button>
          <button type="button" id="codes-download" class="secondary">${t.download}</button>
        </div>${statusRegion('codes-status')}
        <div class="stack">
          <button type="button" id="codes-done" class="primary">${t.saved}</button>
        </div>
      </div>`;
}

/** The creation of a passkey, with a name to tell it apart. */
export function passkeyCreation(context: PageContext, submitLabel: string): SafeHtml {
  const t = context.text.pages.factors;
  return html`
      <form id="passkey-form" class="form" method="post" novalidate>${errorSummary('passkey-summary', context.text.pages.common.errorSummary)}${statusRegion('passkey-status')}${textField({ id: 'passkey-name', name: 'name', label: t.passkeyName, hint: t.passkeyNameHint, value: t.passkeyDefaultName, required: true, maxLength: 100 })}${submitButton(submitLabel, t.passkeyWaiting)}
      </form>`;
}
