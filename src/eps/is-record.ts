/** A JSON object read from the wire (not `null`, not an array): what both sides check before reading a field. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
