// Init-code (and setup) errors as one line. k6 prints a thrown Error with its stack; a thrown
// string is printed as it is, which is what a refused configuration or a refused token deserves.

export function inInit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof Error ? error.message : String(error);
  }
}
