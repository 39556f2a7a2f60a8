// The unit handlers of hello.task.yaml (`--handlers dist/handlers/units.mjs`;
// build: npx tsc -p .): what each unit does. They run in a handler process of
// their own per attempt and touch the world only through ctx.tool; the tool
// adapters are in tools.mts, imported by the worker, which never imports this
// module (docs/runtime.md, "The tools module").
import type { UnitsModule } from "@taskspec/runtime";

const handlers: UnitsModule = {
  units: {
    draft: async (ctx) => {
      await ctx.charge({ model_calls: 1 }); // a real unit would call a model here
      const text = `Hello, ${String(ctx.inputs.audience)}!`;
      await ctx.write("note", { text });
      return { text };
    },
    publish: async (ctx) => {
      const { text } = await ctx.readJson<{ text: string }>("note");
      const receipt = await ctx.tool<{ url: string }>("publish_note", { text });
      await ctx.write("receipt", receipt);
      return receipt;
    },
  },
};

export default handlers;
