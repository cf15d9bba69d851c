import { formatMessage } from '../../i18n/index.js';
import { errorSummary, submitButton } from './fields.js';
import { html } from './html.js';
import type { PageContext } from './page-context.js';
import { renderPage } from './render-page.js';
import { errorSentence, scriptStrings } from './script-strings.js';

export interface DevicePage {
  /** The code as given by verification_uri_complete or typed before, shown again in the field. */
  userCode: string | null;
  /** Why the code was not taken: INVALID_USER_CODE, or TOO_MANY_REQUESTS with the seconds until the next try. */
  error: { code: string; retryAfterSeconds: number | null } | null;
}

/** Where the form goes: the device verification (src/oidc/device), which runs the sign-in steps. */
const verificationAction = '/oauth2/device_verification';

/**
 * /device (RFC 8628 §3.3, the verification_uri): one field for the user
 * code, pre-filled from `?user_code=` (verification_uri_complete), in a
 * plain GET form to the device verification, so it works without a
 * script. A wrong code comes back here with `error` (and `retry_after`
 * once the address is locked), shown in the summary and on the field;
 * /ui/device.js checks for an empty field and moves focus to an error.
 */
export function renderDevicePage(context: PageContext, page: DevicePage): string {
  const t = context.text.pages.device;
  const common = context.text.pages.common;
  const error = page.error && { code: page.error.code, message: errorMessage(context, page.error) };
  const described = error ? 'user_code-hint user_code-error' : 'user_code-hint';
  const body = html`    <h1>${t.heading}</h1>
    <p class="intro">${t.intro}</p>
    <form id="device-form" class="form" method="get" action="${verificationAction}" novalidate>${errorSummary('device-summary', common.errorSummary, error)}
      <div class="field">
        <label for="user_code">${t.code}</label>
        <input id="user_code" name="user_code" type="text" class="user-code" required maxlength="16" autocomplete="off" autocapitalize="characters" spellcheck="false"${page.userCode !== null && html` value="${page.userCode}"`} aria-describedby="${described}" data-describedby="user_code-hint"${error && html` aria-invalid="true"`}>
        <p class="hint" id="user_code-hint">${t.codeHint}</p>
        <p class="field-error" id="user_code-error"${error ? html` data-code="${error.code}">${error.message}` : html` hidden>`}</p>
      </div>${
        context.chosenLocale !== null &&
        html`
      <input type="hidden" name="locale" value="${context.chosenLocale}">`
      }${submitButton(t.submit, t.submitting)}
    </form>`;
  return renderPage(context, {
    task: t.task,
    body,
    script: 'device.js',
    data: { ...scriptStrings(context), device: { codeRequired: t.codeRequired } },
  });
}

/** /device/done: the end of the device's sign-in, approved or denied. */
export function renderDeviceDonePage(context: PageContext, result: 'approved' | 'denied'): string {
  const t = context.text.pages.device;
  const [task, heading, message] =
    result === 'approved'
      ? [t.approvedTask, t.approvedHeading, t.approvedMessage]
      : [t.deniedTask, t.deniedHeading, t.deniedMessage];
  const body = html`    <h1>${heading}</h1>
    <p id="device-result" data-result="${result}">${message}</p>`;
  return renderPage(context, { task, body });
}

/** The lock says when to try again, in the words the login page uses. */
function errorMessage(context: PageContext, error: NonNullable<DevicePage['error']>): string {
  if (error.code !== 'TOO_MANY_REQUESTS' || error.retryAfterSeconds === null) return errorSentence(context, error.code);
  const seconds = error.retryAfterSeconds;
  const [value, unit] = seconds < 90 ? [Math.max(1, seconds), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  const time = new Intl.NumberFormat(context.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
  return formatMessage(context.text.pages.common.retryIn, { time });
}
