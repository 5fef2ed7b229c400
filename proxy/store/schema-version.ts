/** The versioned schema both adapters migrate to at start. */

/** A database whose schema is newer than this code: it refuses to start rather than guess. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database's schema is version ${found}, newer than this givekit proxy knows (${known}); run the newer proxy version, or a database of its own`,
    );
    this.name = "SchemaTooNewError";
  }
}
