/** What other packages (tests, bench) use from the examples: the local remotes and the page corpus. */
export { startBlog, type Post } from "./remote/blog.js";
export { startBooking, type Booking } from "./remote/booking.js";
export { startMail, type Message } from "./remote/mail.js";
export { spawnService, type ServiceProcess, type ServiceName } from "./remote/spawn.js";
export type { RunningService, ServiceOptions } from "./remote/service.js";
export type { Faults } from "./remote/faults.js";
export { writeCorpus } from "./handlers/corpus.js";
export { readInvocations, countPerUnit, INVOCATION_LOG_ENV } from "./handlers/invocation-log.js";
