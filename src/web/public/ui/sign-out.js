// @ts-check
/**
 * The sign-out question (/oauth2/logout, src/web/pages/sign-out-page.ts) is
 * a plain form that works without this script. With it, the button shows
 * progress and a second click sends nothing (docs/ui.md, "Forms").
 */
const form = /** @type {HTMLFormElement} */ (document.getElementById('sign-out-form'));
const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));

form.addEventListener('submit', (event) => {
  if (form.dataset.sent === 'true') {
    event.preventDefault();
    return;
  }
  form.dataset.sent = 'true';
  form.setAttribute('aria-busy', 'true');
  button.textContent = button.dataset.busyLabel ?? button.textContent;
  button.classList.add('busy');
  // The submission has started: disabling the button now does not stop it.
  button.disabled = true;
});
