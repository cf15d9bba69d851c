/** `{{KEY}}` (spaces allowed inside the braces); keys are letters, digits and underscores. */
const placeholder = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * Fills `{{KEY}}` placeholders in served HTML (docs/configuration.md, frontend.html_variables).
 * Values are inserted as they are: they come from the operator's config and
 * may hold markup. A placeholder without a value stays visible, so a typo
 * shows up on the page instead of vanishing.
 */
export function fillHtmlVariables(html: string, variables: Readonly<Record<string, string>>): string {
  return html.replace(placeholder, (match, key: string) => (Object.hasOwn(variables, key) ? variables[key] : match));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
