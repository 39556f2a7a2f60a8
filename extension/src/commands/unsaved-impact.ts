/** "Taskspec: Impact of Unsaved Changes": what the edit in the buffer would invalidate. */
import { activeContract } from "../contracts.js";
import type { ImpactService } from "../impact/service.js";

export async function impactOfUnsavedChanges(impact: ImpactService): Promise<void> {
  const document = activeContract();
  if (document) await impact.showUnsavedImpact(document.uri);
}
