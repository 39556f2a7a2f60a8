/**
 * A reader that stops early (`taskspec check dir | head -2`) closes stdout;
 * the next write fails with EPIPE. That is the reader's choice, not an error
 * of ours, so every command exits quietly instead of printing a stack trace.
 */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
}
