// @ts-check
/**
 * What every page shares (src/web/pages/render-page.ts): the language
 * switcher submits itself on change (its button is for browsers without
 * scripts), and each password field gets its show/hide toggle.
 */
for (const select of document.querySelectorAll('select[data-autosubmit]')) {
  const form = /** @type {HTMLSelectElement} */ (select).form;
  if (!form) continue;
  form.querySelector('.language-apply')?.setAttribute('hidden', '');
  select.addEventListener('change', () => form.requestSubmit());
}

for (const toggle of document.querySelectorAll('button.toggle-password')) {
  const button = /** @type {HTMLButtonElement} */ (toggle);
  const input = /** @type {HTMLInputElement | null} */ (
    document.getElementById(button.getAttribute('aria-controls') ?? '')
  );
  if (!input) continue;
  button.hidden = false;
  /** @param {boolean} reveal */
  const show = (reveal) => {
    input.type = reveal ? 'text' : 'password';
    button.textContent = (reveal ? button.dataset.hide : button.dataset.show) ?? '';
    button.setAttribute('aria-label', (reveal ? button.dataset.hideLabel : button.dataset.showLabel) ?? '');
  };
  button.addEventListener('click', () => show(input.type === 'password'));
  // Hidden again before the form is sent, so that the browser offers to save it as a password.
  input.form?.addEventListener('submit', () => show(false), { capture: true });
}
