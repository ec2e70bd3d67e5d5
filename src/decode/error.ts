/**
 * The one error the decoders throw. Its message is a single line a person can act on, so the CLI
 * prints it as is after the file's name.
 */

/** Why an image could not be decoded. */
export type DecodeFailure = 'unknown-format' | 'truncated' | 'corrupt' | 'too-large' | 'unsupported';

/** An image that could not be decoded, with the kind of failure and a one-line reason. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  /** What went wrong, for callers that branch on it. */
  readonly failure: DecodeFailure;

  constructor(failure: DecodeFailure, message: string, options?: { cause?: unknown }) {
    super(oneLine(message), options);
    this.failure = failure;
  }
}

/** Collapses whitespace and control characters so a message never spans lines or carries escapes. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** The message of anything thrown, on one line; for wrapping a library's error as the reason. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return oneLine(error.message || error.name);
  return oneLine(String(error));
}
