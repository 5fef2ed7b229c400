/** Where a command writes: the process's stdout or stderr, or a test's collector. */
export interface Output {
  write(text: string): unknown;
}
