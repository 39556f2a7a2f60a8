// A real S3-compatible server (s3rver) for the tests: listens on 127.0.0.1 at
// the port given (0: any free one), keeps objects in the directory given,
// creates the bucket given, and prints its endpoint on the first line of
// stdout once it accepts requests. Stops on SIGTERM.
import S3rver from "s3rver";

const [dir, bucket = "taskspec", port = "0"] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node scripts/s3-server.js <dir> [bucket] [port]");
  process.exit(2);
}
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(port),
  directory: dir,
  silent: true,
  configureBuckets: [{ name: bucket }],
});
const { address, port: bound } = await server.run();
console.log(`http://${address}:${bound}`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
