/** The concurrency and staleness cases, in the order they appear in docs/reliability.md. */
import { budgetMidLoop } from "./budget-mid-loop.js";
import { compensationFails } from "./compensation-fails.js";
import type { ExtraCase } from "./context.js";
import { corruptArtifact } from "./corrupt-artifact.js";
import { pausedWorker } from "./paused-worker.js";
import { twoWorkersRace } from "./race.js";
import { approvalOldArtifact, approvalOldVersion } from "./stale-approval.js";
import { twoResumes } from "./two-resumes.js";
import { contractUpgrade } from "./upgrade.js";
import { staleVolatileInput } from "./volatile-input.js";

export const EXTRA_CASES: ExtraCase[] = [
  twoWorkersRace,
  pausedWorker({ at: "create_post", wake: "during-takeover" }),
  pausedWorker({ at: "after-handler", wake: "during-takeover" }),
  pausedWorker({ at: "after-handler", wake: "after-takeover" }),
  twoResumes,
  contractUpgrade,
  approvalOldVersion,
  approvalOldArtifact,
  staleVolatileInput,
  budgetMidLoop,
  corruptArtifact,
  compensationFails,
];
