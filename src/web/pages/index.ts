/**
 * The pages idp renders itself, in the request's locale (src/i18n) and
 * branded by `branding` (docs/ui.md): each page module turns a PageContext
 * (locale, strings, config, this page's address: page-context.ts) and the
 * page's own data into HTML through the one frame, render-page.ts (title,
 * brand, card, footer with the language switcher and terms links). `html`
 * (html.ts) escapes whatever it interpolates. The behaviour is in the ES
 * modules under ../public/ui/, which read their strings from the page's
 * JSON data block and talk only to the JSON API. src/http/routes/page-routes.ts
 * serves them; the error, sign-out and signed-out pages are also rendered
 * by the routes that need them, in every frontend mode.
 */
export { createPageContext, pageHref, stringParam, type PageContext, type PageRequest } from './page-context.js';
export { renderLoginPage, type LoginPage } from './login-page.js';
export { renderSecondFactorPage, type SecondFactorPage } from './second-factor-page.js';
export { renderRegisterPage, type RegisterPage } from './register-page.js';
export { renderVerifyEmailPage } from './verify-email-page.js';
export { renderForgotPasswordPage } from './forgot-password-page.js';
export { renderResetPasswordPage } from './reset-password-page.js';
export { renderAccountPage, accountSections, type AccountSection, type AccountUser } from './account-page.js';
export { renderConsentPage, renderConsentErrorPage, type ConsentPage } from './consent-page.js';
export { renderHomePage } from './home-page.js';
export { renderErrorPage } from './error-page.js';
export { renderSignOutPage } from './sign-out-page.js';
export { renderSignedOutPage } from './signed-out-page.js';
export { renderThemeStylesheet } from './theme-stylesheet.js';
export { renderFavicon } from './favicon.js';
export { logoSource } from './safe-href.js';
export { renderTermsErrorPage, renderTermsPage, type TermsPage } from './terms-page.js';
export { renderAccessDeniedPage, renderAccessDeniedErrorPage, type AccessDeniedPage } from './access-denied-page.js';
export { renderDevicePage, renderDeviceDonePage, type DevicePage } from './device-page.js';
export {
  consoleSections,
  renderConsolePage,
  renderConsoleForbiddenPage,
  consoleErrorSentence,
  csrfField,
  formatMoment,
  type ConsoleRequest,
  type ConsoleSection,
  type ConsolePageParts,
} from './console/console-layout.js';
export {
  renderConsoleGroupPage,
  renderConsoleGroupsPage,
  renderConsoleMissingPage,
  type GroupPage,
} from './console/groups-page.js';
export {
  consoleClientView,
  renderConsoleClientPage,
  renderConsoleClientsPage,
  type ConsoleClientView,
} from './console/clients-page.js';
export { renderConsoleTermsPage } from './console/terms-page.js';
export { eventsQuery, renderConsoleEventsPage, type EventsFilter, type EventsPage } from './console/events-page.js';
export { renderConsoleUsersPage, usersQuery, type UsersFilter, type UsersPage } from './console/users-page.js';
export {
  renderConsoleUserPage,
  renderConsoleConfirmPage,
  renderConsoleUserMissingPage,
  confirmedActions,
  userPath,
  type ConfirmedAction,
  type UserPageOutcome,
} from './console/user-page.js';
export { renderSetupPage, renderSetupUnavailablePage } from './console/setup-page.js';
export { renderConsoleOverviewPage } from './console/overview-page.js';
export type { ConsoleOverview, ConsoleUser, ConsoleUserDetail } from './console/console-views.js';
