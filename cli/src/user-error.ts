/** An error the user can fix (bad usage, missing file); printed without a stack. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
  }
}
