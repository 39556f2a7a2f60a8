// Drill world for specs/trip-booking.task.yaml: the booking service and the mail gateway.
import { exampleWorld } from "./example-world.mjs";

export default exampleWorld(["booking", "mail"]);
