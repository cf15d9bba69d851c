/**
 * Fills `{name}` placeholders of a catalogue string. Values are inserted as
 * text: callers that build HTML escape the result, never the template alone.
 */
export function formatMessage(template: string, values: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{([a-zA-Z_]+)\}/g, (match, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : match,
  );
}
