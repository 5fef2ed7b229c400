const warned = new Set<string>();

/** Says a page's mistake once in the console, however many elements or renders repeat it. */
export function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[givekit] ${message}`);
}
