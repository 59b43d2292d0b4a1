/**
 * Failures the store reports, as named values. The server maps each kind to an HTTP status in one place
 * (server/errors.ts); the CLI maps them to exit codes. `entity` names the resource ("customer", "tag").
 */
export class NotFound extends Error {
  override name = 'NotFound';
  constructor(
    readonly entity: string,
    readonly id: string,
  ) {
    super(`${entity} ${id} not found`);
  }
}

/** The request is well-formed but conflicts with the current state (a duplicate unique value, a state rule). */
export class Conflict extends Error {
  override name = 'Conflict';
  constructor(
    message: string,
    readonly description?: string,
  ) {
    super(message);
  }
}

/** A value passed the schema but is invalid against stored data (e.g. a tag id that is not the team's). */
export class InvalidReference extends Error {
  override name = 'InvalidReference';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The caller may not do this, by a rule of who may (not of scopes): the server answers 403. */
export class Forbidden extends Error {
  override name = 'Forbidden';
  constructor(
    message: string,
    readonly description?: string,
  ) {
    super(message);
  }
}
