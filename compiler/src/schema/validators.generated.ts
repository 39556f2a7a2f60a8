// @ts-nocheck
// Generated from compiler/contract.schema.json and compiler/config.schema.json by
// `npm run gen:types` (scripts/gen-validators.js): ajv's standalone code. Do not edit.
import func5Module from "ajv/dist/runtime/ucs2length.js";

export const validateContract = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"contract.schema.json","title":"taskspec task contract, version 1","description":"A task contract (*.task.yaml): units of work with inputs, outputs, dependencies and verifiers, tools with recovery classes, and budgets.","type":"object","additionalProperties":false,"required":["contract","task","units"],"properties":{"contract":{"description":"Format version of the contract language; must be 1.","const":1},"task":{"$ref":"#/$defs/task"},"inputs":{"description":"Named inputs the units depend on: sources, decisions, external state. Each is a node of the dependency graph.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/input"}},"budgets":{"$ref":"#/$defs/budgets"},"queue":{"$ref":"#/$defs/queue"},"tools":{"description":"Every tool a unit may call, each with a recovery class that says what recovery may do after a crash.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/tool"}},"servers":{"description":"MCP servers (Model Context Protocol) whose tools `tools.*.mcp` binds: each started as a local process over stdio (`command`) or reached over Streamable HTTP (`url`).","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/server"}},"verifiers":{"description":"Named checks used by units (`verify`) and by `task.done`.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/verifier"}},"units":{"description":"The work units: the nodes of the dependency graph.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/unit"}},"impact":{"description":"Rules that widen invalidation (they never narrow it).","type":"array","items":{"$ref":"#/$defs/impactRule"}}},"$defs":{"name":{"description":"A name: letters, digits, `_` and `-`, not starting with `-`.","type":"string","pattern":"^[A-Za-z0-9_][A-Za-z0-9_-]*$"},"duration":{"description":"A duration such as `45m`, `36h`, `90s`, `500ms` or `2d`.","type":"string","pattern":"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},"approval":{"description":"Who approves: `human` (a person) or `rule` (an automatic rule).","enum":["human","rule"]},"cost":{"description":"Cost per attempt (units) or per call (tools).","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Model calls.","type":"number","minimum":0},"tool_calls":{"description":"Tool calls.","type":"number","minimum":0},"tokens":{"description":"Model tokens.","type":"number","minimum":0}}},"verifierUse":{"description":"A declared verifier's name, or an inline check `{ check: \"...\" }`.","if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["check"],"properties":{"check":{"description":"An expression that must be true, e.g. `count(result.claims) >= 1`.","type":"string"}}}},"task":{"description":"Identity, goal and end-to-end verifiers of the task.","type":"object","additionalProperties":false,"required":["id","goal"],"properties":{"id":{"description":"Stable id: lowercase letters, digits, `.`, `_`, `-`.","type":"string","pattern":"^[a-z0-9][a-z0-9._-]*$"},"version":{"description":"Contract version; bump it when the goal changes. Defaults to 1.","type":"integer","minimum":1},"goal":{"description":"What the task must achieve, in one sentence.","type":"string"},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit of every unit without its own `timeout`, e.g. `10m`. Without either, a unit gets the runtime's default of 30m."},"forbid":{"description":"Things the task must never do.","type":"array","items":{"type":"string"}},"outputs":{"description":"Artifacts the task delivers; each is produced by exactly one unit.","type":"array","items":{"type":"string"}},"done":{"description":"End-to-end verifiers: the task is finished only when these pass on the final world.","type":"array","items":{"$ref":"#/$defs/verifierUse"}}}},"input":{"description":"A named input.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`snapshot` (fixed set), `decision` (a choice made by people), `external` (live world state) or `artifact` (a file from outside).","enum":["snapshot","decision","external","artifact"]},"version":{"description":"Version of a snapshot or artifact; changing it invalidates what depends on it.","type":["string","integer"]},"value":{"description":"Value of a decision; changing it invalidates what depends on it."},"volatile":{"description":"Evidence read from it expires and is re-read on resume (default true for `external`).","type":"boolean"},"describe":{"description":"What this input is, for people.","type":"string"},"secret":{"description":"The value is a secret: never stored (only its digest), never in events, masked as `***` in `status`, `handoff`, messages and the editor. Give it with an input reader, not a `value` in the contract (C037).","type":"boolean"}}},"queue":{"description":"The work queue the workers of a shared store serve this task's runs from (`taskspec submit`, `taskspec worker`). Absent: the queue `default`. A run's own `submit --queue` overrides `name`.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"description":"The queue's name: letters, digits, `.`, `_` and `-`, at most 64. Workers may serve only some queues (`--queue`) and limit each (`--queue-limit`).","type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"},"key":{"description":"A template for the tenant the run belongs to, e.g. `${inputs.customer}`: runs of one queue take turns by key, so a tenant with many runs does not starve one with few. Sees `task`, `run` and `inputs`. Absent: all runs of the queue are one tenant.","type":"string"}}},"budgets":{"description":"Hard caps that survive crashes.","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Cap on model calls for the whole run.","type":"number","minimum":0},"tool_calls":{"description":"Cap on tool calls for the whole run.","type":"number","minimum":0},"tokens":{"description":"Cap on model tokens for the whole run.","type":"number","minimum":0},"wall_clock":{"$ref":"#/$defs/duration","description":"Cap on elapsed time, e.g. `36h`."},"retries":{"description":"Default extra attempts per unit (units may override with `retry`).","type":"integer","minimum":0}}},"tool":{"description":"A tool and its recovery class.","type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"Recovery class: `read`, `idempotent`, `dedup`, `compensable` or `irreversible`.","enum":["read","idempotent","dedup","compensable","irreversible"]},"key":{"description":"Business key template, e.g. `task:${task.id}:${unit.id}`; required for `dedup`.","type":"string"},"lookup":{"description":"A `read` tool that finds the effect by key when its outcome is unknown.","type":"string"},"args":{"description":"What the ledger may keep of the tool's arguments. By default only their names (and digests of their values); `safe: true` keeps an argument's value in the effect's intent, `secret: true` keeps not even its digest and masks it as `***`.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/argument"}},"result":{"description":"Fields of the tool's result and their types (`{ type, secret: true }` for a field the ledger must never store).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"$ref":"#/$defs/resultType"},"else":{"type":"object","additionalProperties":false,"required":["type"],"properties":{"type":{"$ref":"#/$defs/resultType"},"secret":{"description":"The field is a secret: the ledger never stores it, and the receipt the handler gets lacks it (the first call's as a reused effect's: the same receipt every time).","type":"boolean"}}}}},"compensate":{"description":"How to undo a committed call: the compensator tool and its arguments.","type":"object","additionalProperties":false,"required":["tool"],"properties":{"tool":{"description":"The compensator; an `idempotent` or `dedup` tool.","type":"string"},"with":{"description":"Arguments, as templates over `result`, e.g. `${result.booking_id}`.","type":"object","additionalProperties":{"type":"string"}},"compensated":{"description":"When the undo is verified: an expression over `result`, the record the tool's lookup answers after the compensator ran, true when the effect is undone, e.g. `result.status == \"voided\"`. A lookup answering null (nothing there) is always compensated. Default: `result.status == \"cancelled\"`. Never invalidates committed work.","type":"string"}}},"approval":{"$ref":"#/$defs/approval","description":"Who may approve a use of this tool; units that use it declare the gate."},"mcp":{"$ref":"#/$defs/mcpBinding"},"cost":{"$ref":"#/$defs/cost","description":"Cost per call."},"describe":{"description":"What the tool does, for people.","type":"string"}}},"server":{"description":"An MCP server: `command` (stdio) or `url` (Streamable HTTP), exactly one (C100).","type":"object","additionalProperties":false,"properties":{"command":{"description":"stdio: the program that starts the server, e.g. `node`.","type":"string"},"args":{"description":"stdio: its arguments. No secrets here (C102): pass them in `env`.","type":"array","items":{"type":"string"}},"env":{"description":"stdio: names of the worker's environment variables the server gets; besides them it gets only HOME, LOGNAME, PATH, SHELL, TERM and USER. Names only, never `NAME=value` (C102).","type":"array","items":{"type":"string"}},"cwd":{"description":"stdio: its working directory, relative to the contract's folder.","type":"string"},"url":{"description":"Streamable HTTP: the server's endpoint, e.g. `https://crm.example.com/mcp`. No credentials in it (C102).","type":"string"},"headers":{"description":"Streamable HTTP: headers sent with every request: a plain value (nothing secret, C102), or `{ env: NAME, prefix? }`, the value of the worker's environment variable NAME (after `prefix`, e.g. `\"Bearer \"`).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["env"],"properties":{"env":{"description":"The environment variable that holds the value.","type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"prefix":{"description":"Text sent before the value, e.g. `Bearer `.","type":"string"}}}}},"timeout":{"description":"How long one request to this server may take (default 60s): past it the call is abandoned, the server is sent MCP's cancellation notification, and the effect is UNKNOWN, resolved by its lookup. A unit's own timeout cuts a call sooner.","$ref":"#/$defs/duration"},"describe":{"description":"What the server is, for people.","type":"string"}}},"mcpBinding":{"description":"The tool is a tool of an MCP server: the runtime calls it from the worker, through the ledger.","type":"object","additionalProperties":false,"required":["server","tool"],"properties":{"server":{"description":"A server declared under `servers` (C100).","type":"string"},"tool":{"description":"The tool's name on that server.","type":"string"},"key_arg":{"description":"The argument the rendered `key` is passed in (the server de-duplicates by it; a lookup finds the effect by it). A tool with a `key` needs it, or a bound `lookup` that has it (C101).","type":"string"}}},"resultType":{"description":"The type of a result field.","enum":["string","number","boolean","list","object","any"]},"argument":{"description":"What the ledger keeps of one argument.","type":"object","additionalProperties":false,"properties":{"secret":{"description":"The value is a secret: no digest of it is stored, it is masked as `***` in a held request, `status` and `handoff`, and a `key` must not read it (C037).","type":"boolean"},"safe":{"description":"The value is not sensitive: the effect's intent shows it (`send_email(to=ops@example.com, body)`), clipped and with credential-shaped text masked.","type":"boolean"},"describe":{"description":"What the argument is, for people.","type":"string"}}},"verifier":{"description":"A named check.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`rule` (an expression), `schema` (a JSON Schema file), `model` (soft, judged by a model) or `human`.","enum":["rule","schema","model","human"]},"check":{"description":"For `rule`: an expression that must be true.","type":"string"},"schema":{"description":"For `schema`: path of the JSON Schema the result must satisfy.","type":"string"},"describe":{"description":"What is checked, for people (and the prompt of a `model` verifier).","type":"string"}},"allOf":[{"if":{"properties":{"kind":{"const":"rule"}},"required":["kind"]},"then":{"required":["check"]}},{"if":{"properties":{"kind":{"const":"schema"}},"required":["kind"]},"then":{"required":["schema"]}}]},"unit":{"description":"A unit of work.","type":"object","additionalProperties":false,"properties":{"phase":{"description":"Phase label used for grouping (e.g. `extract`, `verify`).","type":"string"},"describe":{"description":"What the unit does, for people.","type":"string"},"needs":{"description":"Upstream units or inputs, each with one edge kind or a list: `content`, `structure`, `policy`, `audience`.","$comment":"Edge kinds are any string on purpose: C070 names an unknown one and suggests the closest.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}},"uses":{"description":"Tools this unit may call.","type":"array","items":{"type":"string"}},"produces":{"description":"Artifacts this unit produces.","type":"array","items":{"type":"string"}},"verify":{"description":"Verifiers that must pass before the unit counts as done.","type":"array","items":{"$ref":"#/$defs/verifierUse"}},"cost":{"$ref":"#/$defs/cost","description":"The unit's own model cost per attempt."},"loop":{"description":"Bounded iteration inside the unit.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most iterations: a positive integer.","$comment":"Untyped on purpose: C021 reports a bound that is missing or not a positive integer, with a fix."},"until":{"description":"Stop early when this expression is true.","type":"string"}}},"retry":{"description":"Extra attempts after the first; overrides `budgets.retries`.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most extra attempts: a non-negative integer.","$comment":"Untyped on purpose: C021 reports a bound that is not a finite non-negative integer."},"backoff":{"description":"How long the unit waits before each extra attempt: `initial`, then `factor` times longer each time, at most `max`, with `jitter`. Defaults: `initial: 1s`, `factor: 2`, `max: 5m`, `jitter: equal`. Policy: never invalidates committed work.","type":"object","additionalProperties":false,"properties":{"initial":{"$ref":"#/$defs/duration","description":"Wait before the first extra attempt, e.g. `1s` (default)."},"max":{"$ref":"#/$defs/duration","description":"Longest wait, e.g. `5m` (default); at least `initial`."},"factor":{"description":"Each wait is this many times the one before: a number from 1 to 100 (default 2; 1 is a constant wait).","type":"number"},"jitter":{"description":"Randomness against retry storms: `equal` (default: half the wait fixed, half random), `full` (anywhere from 0 to the wait) or `none`.","enum":["equal","full","none"]}}}}},"effects":{"description":"How many effects of a `dedup` or `irreversible` tool the unit makes at most (per loop iteration), for a tool whose `key` reads the call's `args`: `{ post_comment: { max: 3 } }`. Without it the unit makes at most one effect of each such tool (C039); the runtime refuses the next distinct key.","type":"object","additionalProperties":{"type":"object","additionalProperties":false,"required":["max"],"properties":{"max":{"description":"Most distinct keys of the tool per run of the unit (per loop iteration): a positive integer.","type":"integer","minimum":1}}}},"approval":{"$ref":"#/$defs/approval","description":"Durable gate before the unit runs."},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit, e.g. `45m`; without it, `task.timeout`, else the default of 30m."},"on_code_change":{"description":"When the code of the unit's handler, or of a tool adapter its work or recovery calls, changed since its result was committed: `ask` (the default: `resume` and `status` report it, `taskspec rerun` re-runs it) or `rerun` (re-run it at the next `resume`).","enum":["ask","rerun"]}}},"impactRule":{"description":"Also invalidate these units when a change of this kind happens.","type":"object","additionalProperties":false,"required":["on","invalidate"],"properties":{"on":{"description":"Change kind that fires the rule: `content`, `structure`, `policy` or `audience`.","type":"string","$comment":"Any string on purpose: C070 names an unknown change kind."},"at":{"description":"Only changes at this unit or input.","type":"string"},"invalidate":{"description":"Units to invalidate as well.","type":"array","items":{"type":"string"}}}}}};
const schema35 = {"description":"A name: letters, digits, `_` and `-`, not starting with `-`.","type":"string","pattern":"^[A-Za-z0-9_][A-Za-z0-9_-]*$"};
const schema36 = {"description":"A named input.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`snapshot` (fixed set), `decision` (a choice made by people), `external` (live world state) or `artifact` (a file from outside).","enum":["snapshot","decision","external","artifact"]},"version":{"description":"Version of a snapshot or artifact; changing it invalidates what depends on it.","type":["string","integer"]},"value":{"description":"Value of a decision; changing it invalidates what depends on it."},"volatile":{"description":"Evidence read from it expires and is re-read on resume (default true for `external`).","type":"boolean"},"describe":{"description":"What this input is, for people.","type":"string"},"secret":{"description":"The value is a secret: never stored (only its digest), never in events, masked as `***` in `status`, `handoff`, messages and the editor. Give it with an input reader, not a `value` in the contract (C037).","type":"boolean"}}};
const schema39 = {"description":"The work queue the workers of a shared store serve this task's runs from (`taskspec submit`, `taskspec worker`). Absent: the queue `default`. A run's own `submit --queue` overrides `name`.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"description":"The queue's name: letters, digits, `.`, `_` and `-`, at most 64. Workers may serve only some queues (`--queue`) and limit each (`--queue-limit`).","type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"},"key":{"description":"A template for the tenant the run belongs to, e.g. `${inputs.customer}`: runs of one queue take turns by key, so a tenant with many runs does not starve one with few. Sees `task`, `run` and `inputs`. Absent: all runs of the queue are one tenant.","type":"string"}}};
const schema53 = {"description":"A named check.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`rule` (an expression), `schema` (a JSON Schema file), `model` (soft, judged by a model) or `human`.","enum":["rule","schema","model","human"]},"check":{"description":"For `rule`: an expression that must be true.","type":"string"},"schema":{"description":"For `schema`: path of the JSON Schema the result must satisfy.","type":"string"},"describe":{"description":"What is checked, for people (and the prompt of a `model` verifier).","type":"string"}},"allOf":[{"if":{"properties":{"kind":{"const":"rule"}},"required":["kind"]},"then":{"required":["check"]}},{"if":{"properties":{"kind":{"const":"schema"}},"required":["kind"]},"then":{"required":["schema"]}}]};
const schema63 = {"description":"Also invalidate these units when a change of this kind happens.","type":"object","additionalProperties":false,"required":["on","invalidate"],"properties":{"on":{"description":"Change kind that fires the rule: `content`, `structure`, `policy` or `audience`.","type":"string","$comment":"Any string on purpose: C070 names an unknown change kind."},"at":{"description":"Only changes at this unit or input.","type":"string"},"invalidate":{"description":"Units to invalidate as well.","type":"array","items":{"type":"string"}}}};
const func1 = Object.prototype.hasOwnProperty;
const schema32 = {"description":"Identity, goal and end-to-end verifiers of the task.","type":"object","additionalProperties":false,"required":["id","goal"],"properties":{"id":{"description":"Stable id: lowercase letters, digits, `.`, `_`, `-`.","type":"string","pattern":"^[a-z0-9][a-z0-9._-]*$"},"version":{"description":"Contract version; bump it when the goal changes. Defaults to 1.","type":"integer","minimum":1},"goal":{"description":"What the task must achieve, in one sentence.","type":"string"},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit of every unit without its own `timeout`, e.g. `10m`. Without either, a unit gets the runtime's default of 30m."},"forbid":{"description":"Things the task must never do.","type":"array","items":{"type":"string"}},"outputs":{"description":"Artifacts the task delivers; each is produced by exactly one unit.","type":"array","items":{"type":"string"}},"done":{"description":"End-to-end verifiers: the task is finished only when these pass on the final world.","type":"array","items":{"$ref":"#/$defs/verifierUse"}}}};
const schema33 = {"description":"A duration such as `45m`, `36h`, `90s`, `500ms` or `2d`.","type":"string","pattern":"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"};
const schema34 = {"description":"A declared verifier's name, or an inline check `{ check: \"...\" }`.","if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["check"],"properties":{"check":{"description":"An expression that must be true, e.g. `count(result.claims) >= 1`.","type":"string"}}}};
const pattern4 = new RegExp("^[a-z0-9][a-z0-9._-]*$", "u");
const pattern5 = new RegExp("^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$", "u");

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.goal === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "goal"},message:"must have required property '"+"goal"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "id") || (key0 === "version")) || (key0 === "goal")) || (key0 === "timeout")) || (key0 === "forbid")) || (key0 === "outputs")) || (key0 === "done"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.id !== undefined){
let data0 = data.id;
if(typeof data0 === "string"){
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._-]*$"+"\"",schema:"^[a-z0-9][a-z0-9._-]*$",parentSchema:schema32.properties.id,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.id.type,parentSchema:schema32.properties.id,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.version !== undefined){
let data1 = data.version;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err5 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.version.type,parentSchema:schema32.properties.version,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 < 1 || isNaN(data1)){
const err6 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.version,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
if(data.goal !== undefined){
let data2 = data.goal;
if(typeof data2 !== "string"){
const err7 = {instancePath:instancePath+"/goal",schemaPath:"#/properties/goal/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.goal.type,parentSchema:schema32.properties.goal,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.timeout !== undefined){
let data3 = data.timeout;
if(typeof data3 === "string"){
if(!pattern5.test(data3)){
const err8 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.forbid !== undefined){
let data4 = data.forbid;
if(Array.isArray(data4)){
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
if(typeof data5 !== "string"){
const err10 = {instancePath:instancePath+"/forbid/" + i0,schemaPath:"#/properties/forbid/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.forbid.items.type,parentSchema:schema32.properties.forbid.items,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/forbid",schemaPath:"#/properties/forbid/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.forbid.type,parentSchema:schema32.properties.forbid,data:data4};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.outputs !== undefined){
let data6 = data.outputs;
if(Array.isArray(data6)){
const len1 = data6.length;
for(let i1=0; i1<len1; i1++){
let data7 = data6[i1];
if(typeof data7 !== "string"){
const err12 = {instancePath:instancePath+"/outputs/" + i1,schemaPath:"#/properties/outputs/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.outputs.items.type,parentSchema:schema32.properties.outputs.items,data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.outputs.type,parentSchema:schema32.properties.outputs,data:data6};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.done !== undefined){
let data8 = data.done;
if(Array.isArray(data8)){
const len2 = data8.length;
for(let i2=0; i2<len2; i2++){
let data9 = data8[i2];
const _errs23 = errors;
let valid9 = true;
const _errs24 = errors;
if(typeof data9 !== "string"){
const err14 = {};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs24 === errors;
errors = _errs23;
if(vErrors !== null){
if(_errs23){
vErrors.length = _errs23;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs26 = errors;
if(typeof data9 !== "string"){
const err15 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/then/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.then.type,parentSchema:schema34.then,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs26 === errors;
valid9 = _valid0;
ifClause0 = "then";
}
else {
const _errs28 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.check === undefined){
const err16 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/else/required",keyword:"required",params:{missingProperty: "check"},message:"must have required property '"+"check"+"'",schema:schema34.else.required,parentSchema:schema34.else,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
for(const key1 in data9){
if(!(key1 === "check")){
const err17 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema34.else,data:data9};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data9.check !== undefined){
let data10 = data9.check;
if(typeof data10 !== "string"){
const err18 = {instancePath:instancePath+"/done/" + i2+"/check",schemaPath:"#/$defs/verifierUse/else/properties/check/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.else.properties.check.type,parentSchema:schema34.else.properties.check,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.else.type,parentSchema:schema34.else,data:data9};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
var _valid0 = _errs28 === errors;
valid9 = _valid0;
ifClause0 = "else";
}
if(!valid9){
const err20 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema34.if,parentSchema:schema34,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/done",schemaPath:"#/properties/done/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.done.type,parentSchema:schema32.properties.done,data:data8};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema37 = {"description":"Hard caps that survive crashes.","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Cap on model calls for the whole run.","type":"number","minimum":0},"tool_calls":{"description":"Cap on tool calls for the whole run.","type":"number","minimum":0},"tokens":{"description":"Cap on model tokens for the whole run.","type":"number","minimum":0},"wall_clock":{"$ref":"#/$defs/duration","description":"Cap on elapsed time, e.g. `36h`."},"retries":{"description":"Default extra attempts per unit (units may override with `retry`).","type":"integer","minimum":0}}};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate23.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((key0 === "model_calls") || (key0 === "tool_calls")) || (key0 === "tokens")) || (key0 === "wall_clock")) || (key0 === "retries"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema37,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.model_calls !== undefined){
let data0 = data.model_calls;
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 < 0 || isNaN(data0)){
const err1 = {instancePath:instancePath+"/model_calls",schemaPath:"#/properties/model_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.model_calls,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/model_calls",schemaPath:"#/properties/model_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.model_calls.type,parentSchema:schema37.properties.model_calls,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.tool_calls !== undefined){
let data1 = data.tool_calls;
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 < 0 || isNaN(data1)){
const err3 = {instancePath:instancePath+"/tool_calls",schemaPath:"#/properties/tool_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.tool_calls,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/tool_calls",schemaPath:"#/properties/tool_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.tool_calls.type,parentSchema:schema37.properties.tool_calls,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.tokens !== undefined){
let data2 = data.tokens;
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 < 0 || isNaN(data2)){
const err5 = {instancePath:instancePath+"/tokens",schemaPath:"#/properties/tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.tokens,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/tokens",schemaPath:"#/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.tokens.type,parentSchema:schema37.properties.tokens,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.wall_clock !== undefined){
let data3 = data.wall_clock;
if(typeof data3 === "string"){
if(!pattern5.test(data3)){
const err7 = {instancePath:instancePath+"/wall_clock",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/wall_clock",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.retries !== undefined){
let data4 = data.retries;
if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){
const err9 = {instancePath:instancePath+"/retries",schemaPath:"#/properties/retries/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema37.properties.retries.type,parentSchema:schema37.properties.retries,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 < 0 || isNaN(data4)){
const err10 = {instancePath:instancePath+"/retries",schemaPath:"#/properties/retries/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.retries,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
}
else {
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.type,parentSchema:schema37,data};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
validate23.errors = vErrors;
return errors === 0;
}
validate23.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema41 = {"description":"A tool and its recovery class.","type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"Recovery class: `read`, `idempotent`, `dedup`, `compensable` or `irreversible`.","enum":["read","idempotent","dedup","compensable","irreversible"]},"key":{"description":"Business key template, e.g. `task:${task.id}:${unit.id}`; required for `dedup`.","type":"string"},"lookup":{"description":"A `read` tool that finds the effect by key when its outcome is unknown.","type":"string"},"args":{"description":"What the ledger may keep of the tool's arguments. By default only their names (and digests of their values); `safe: true` keeps an argument's value in the effect's intent, `secret: true` keeps not even its digest and masks it as `***`.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/argument"}},"result":{"description":"Fields of the tool's result and their types (`{ type, secret: true }` for a field the ledger must never store).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"$ref":"#/$defs/resultType"},"else":{"type":"object","additionalProperties":false,"required":["type"],"properties":{"type":{"$ref":"#/$defs/resultType"},"secret":{"description":"The field is a secret: the ledger never stores it, and the receipt the handler gets lacks it (the first call's as a reused effect's: the same receipt every time).","type":"boolean"}}}}},"compensate":{"description":"How to undo a committed call: the compensator tool and its arguments.","type":"object","additionalProperties":false,"required":["tool"],"properties":{"tool":{"description":"The compensator; an `idempotent` or `dedup` tool.","type":"string"},"with":{"description":"Arguments, as templates over `result`, e.g. `${result.booking_id}`.","type":"object","additionalProperties":{"type":"string"}},"compensated":{"description":"When the undo is verified: an expression over `result`, the record the tool's lookup answers after the compensator ran, true when the effect is undone, e.g. `result.status == \"voided\"`. A lookup answering null (nothing there) is always compensated. Default: `result.status == \"cancelled\"`. Never invalidates committed work.","type":"string"}}},"approval":{"$ref":"#/$defs/approval","description":"Who may approve a use of this tool; units that use it declare the gate."},"mcp":{"$ref":"#/$defs/mcpBinding"},"cost":{"$ref":"#/$defs/cost","description":"Cost per call."},"describe":{"description":"What the tool does, for people.","type":"string"}}};
const schema43 = {"description":"What the ledger keeps of one argument.","type":"object","additionalProperties":false,"properties":{"secret":{"description":"The value is a secret: no digest of it is stored, it is masked as `***` in a held request, `status` and `handoff`, and a `key` must not read it (C037).","type":"boolean"},"safe":{"description":"The value is not sensitive: the effect's intent shows it (`send_email(to=ops@example.com, body)`), clipped and with credential-shaped text masked.","type":"boolean"},"describe":{"description":"What the argument is, for people.","type":"string"}}};
const schema44 = {"description":"The type of a result field.","enum":["string","number","boolean","list","object","any"]};
const schema46 = {"description":"Who approves: `human` (a person) or `rule` (an automatic rule).","enum":["human","rule"]};
const schema47 = {"description":"The tool is a tool of an MCP server: the runtime calls it from the worker, through the ledger.","type":"object","additionalProperties":false,"required":["server","tool"],"properties":{"server":{"description":"A server declared under `servers` (C100).","type":"string"},"tool":{"description":"The tool's name on that server.","type":"string"},"key_arg":{"description":"The argument the rendered `key` is passed in (the server de-duplicates by it; a lookup finds the effect by it). A tool with a `key` needs it, or a bound `lookup` that has it (C101).","type":"string"}}};
const schema48 = {"description":"Cost per attempt (units) or per call (tools).","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Model calls.","type":"number","minimum":0},"tool_calls":{"description":"Tool calls.","type":"number","minimum":0},"tokens":{"description":"Model tokens.","type":"number","minimum":0}}};
const pattern6 = new RegExp("^[A-Za-z0-9_][A-Za-z0-9_-]*$", "u");

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.class === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "class"},message:"must have required property '"+"class"+"'",schema:schema41.required,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema41.properties, key0))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.class !== undefined){
let data0 = data.class;
if(!(((((data0 === "read") || (data0 === "idempotent")) || (data0 === "dedup")) || (data0 === "compensable")) || (data0 === "irreversible"))){
const err2 = {instancePath:instancePath+"/class",schemaPath:"#/properties/class/enum",keyword:"enum",params:{allowedValues: schema41.properties.class.enum},message:"must be equal to one of the allowed values",schema:schema41.properties.class.enum,parentSchema:schema41.properties.class,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.key !== undefined){
let data1 = data.key;
if(typeof data1 !== "string"){
const err3 = {instancePath:instancePath+"/key",schemaPath:"#/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.key.type,parentSchema:schema41.properties.key,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.lookup !== undefined){
let data2 = data.lookup;
if(typeof data2 !== "string"){
const err4 = {instancePath:instancePath+"/lookup",schemaPath:"#/properties/lookup/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.lookup.type,parentSchema:schema41.properties.lookup,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.args !== undefined){
let data3 = data.args;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key1 in data3){
const _errs9 = errors;
if(typeof key1 === "string"){
if(!pattern6.test(key1)){
const err5 = {instancePath:instancePath+"/args",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/args",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var valid1 = _errs9 === errors;
if(!valid1){
const err7 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema41.properties.args.propertyNames,parentSchema:schema41.properties.args,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
for(const key2 in data3){
let data4 = data3[key2];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
for(const key3 in data4){
if(!(((key3 === "secret") || (key3 === "safe")) || (key3 === "describe"))){
const err8 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/argument/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema43,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data4.secret !== undefined){
let data5 = data4.secret;
if(typeof data5 !== "boolean"){
const err9 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/secret",schemaPath:"#/$defs/argument/properties/secret/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema43.properties.secret.type,parentSchema:schema43.properties.secret,data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data4.safe !== undefined){
let data6 = data4.safe;
if(typeof data6 !== "boolean"){
const err10 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/safe",schemaPath:"#/$defs/argument/properties/safe/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema43.properties.safe.type,parentSchema:schema43.properties.safe,data:data6};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data4.describe !== undefined){
let data7 = data4.describe;
if(typeof data7 !== "string"){
const err11 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/describe",schemaPath:"#/$defs/argument/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema43.properties.describe.type,parentSchema:schema43.properties.describe,data:data7};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/argument/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema43.type,parentSchema:schema43,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.args.type,parentSchema:schema41.properties.args,data:data3};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.result !== undefined){
let data8 = data.result;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
for(const key4 in data8){
let data9 = data8[key4];
const _errs27 = errors;
let valid7 = true;
const _errs28 = errors;
if(typeof data9 !== "string"){
const err14 = {};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs28 === errors;
errors = _errs27;
if(vErrors !== null){
if(_errs27){
vErrors.length = _errs27;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs30 = errors;
if(!((((((data9 === "string") || (data9 === "number")) || (data9 === "boolean")) || (data9 === "list")) || (data9 === "object")) || (data9 === "any"))){
const err15 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/resultType/enum",keyword:"enum",params:{allowedValues: schema44.enum},message:"must be equal to one of the allowed values",schema:schema44.enum,parentSchema:schema44,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs30 === errors;
valid7 = _valid0;
ifClause0 = "then";
}
else {
const _errs32 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.type === undefined){
const err16 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/else/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema41.properties.result.additionalProperties.else.required,parentSchema:schema41.properties.result.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
for(const key5 in data9){
if(!((key5 === "type") || (key5 === "secret"))){
const err17 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema41.properties.result.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data9.type !== undefined){
let data10 = data9.type;
if(!((((((data10 === "string") || (data10 === "number")) || (data10 === "boolean")) || (data10 === "list")) || (data10 === "object")) || (data10 === "any"))){
const err18 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/type",schemaPath:"#/$defs/resultType/enum",keyword:"enum",params:{allowedValues: schema44.enum},message:"must be equal to one of the allowed values",schema:schema44.enum,parentSchema:schema44,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data9.secret !== undefined){
let data11 = data9.secret;
if(typeof data11 !== "boolean"){
const err19 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/secret",schemaPath:"#/properties/result/additionalProperties/else/properties/secret/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema41.properties.result.additionalProperties.else.properties.secret.type,parentSchema:schema41.properties.result.additionalProperties.else.properties.secret,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.result.additionalProperties.else.type,parentSchema:schema41.properties.result.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
var _valid0 = _errs32 === errors;
valid7 = _valid0;
ifClause0 = "else";
}
if(!valid7){
const err21 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema41.properties.result.additionalProperties.if,parentSchema:schema41.properties.result.additionalProperties,data:data9};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/result",schemaPath:"#/properties/result/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.result.type,parentSchema:schema41.properties.result,data:data8};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.compensate !== undefined){
let data12 = data.compensate;
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
if(data12.tool === undefined){
const err23 = {instancePath:instancePath+"/compensate",schemaPath:"#/properties/compensate/required",keyword:"required",params:{missingProperty: "tool"},message:"must have required property '"+"tool"+"'",schema:schema41.properties.compensate.required,parentSchema:schema41.properties.compensate,data:data12};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
for(const key6 in data12){
if(!(((key6 === "tool") || (key6 === "with")) || (key6 === "compensated"))){
const err24 = {instancePath:instancePath+"/compensate",schemaPath:"#/properties/compensate/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema41.properties.compensate,data:data12};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data12.tool !== undefined){
let data13 = data12.tool;
if(typeof data13 !== "string"){
const err25 = {instancePath:instancePath+"/compensate/tool",schemaPath:"#/properties/compensate/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.compensate.properties.tool.type,parentSchema:schema41.properties.compensate.properties.tool,data:data13};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data12.with !== undefined){
let data14 = data12.with;
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
for(const key7 in data14){
let data15 = data14[key7];
if(typeof data15 !== "string"){
const err26 = {instancePath:instancePath+"/compensate/with/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/compensate/properties/with/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.compensate.properties.with.additionalProperties.type,parentSchema:schema41.properties.compensate.properties.with.additionalProperties,data:data15};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/compensate/with",schemaPath:"#/properties/compensate/properties/with/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.compensate.properties.with.type,parentSchema:schema41.properties.compensate.properties.with,data:data14};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data12.compensated !== undefined){
let data16 = data12.compensated;
if(typeof data16 !== "string"){
const err28 = {instancePath:instancePath+"/compensate/compensated",schemaPath:"#/properties/compensate/properties/compensated/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.compensate.properties.compensated.type,parentSchema:schema41.properties.compensate.properties.compensated,data:data16};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
else {
const err29 = {instancePath:instancePath+"/compensate",schemaPath:"#/properties/compensate/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.compensate.type,parentSchema:schema41.properties.compensate,data:data12};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.approval !== undefined){
let data17 = data.approval;
if(!((data17 === "human") || (data17 === "rule"))){
const err30 = {instancePath:instancePath+"/approval",schemaPath:"#/$defs/approval/enum",keyword:"enum",params:{allowedValues: schema46.enum},message:"must be equal to one of the allowed values",schema:schema46.enum,parentSchema:schema46,data:data17};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.mcp !== undefined){
let data18 = data.mcp;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.server === undefined){
const err31 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/required",keyword:"required",params:{missingProperty: "server"},message:"must have required property '"+"server"+"'",schema:schema47.required,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(data18.tool === undefined){
const err32 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/required",keyword:"required",params:{missingProperty: "tool"},message:"must have required property '"+"tool"+"'",schema:schema47.required,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
for(const key8 in data18){
if(!(((key8 === "server") || (key8 === "tool")) || (key8 === "key_arg"))){
const err33 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key8},message:"must NOT have additional properties",schema:false,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data18.server !== undefined){
let data19 = data18.server;
if(typeof data19 !== "string"){
const err34 = {instancePath:instancePath+"/mcp/server",schemaPath:"#/$defs/mcpBinding/properties/server/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema47.properties.server.type,parentSchema:schema47.properties.server,data:data19};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data18.tool !== undefined){
let data20 = data18.tool;
if(typeof data20 !== "string"){
const err35 = {instancePath:instancePath+"/mcp/tool",schemaPath:"#/$defs/mcpBinding/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema47.properties.tool.type,parentSchema:schema47.properties.tool,data:data20};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data18.key_arg !== undefined){
let data21 = data18.key_arg;
if(typeof data21 !== "string"){
const err36 = {instancePath:instancePath+"/mcp/key_arg",schemaPath:"#/$defs/mcpBinding/properties/key_arg/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema47.properties.key_arg.type,parentSchema:schema47.properties.key_arg,data:data21};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
}
else {
const err37 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema47.type,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data.cost !== undefined){
let data22 = data.cost;
if(data22 && typeof data22 == "object" && !Array.isArray(data22)){
for(const key9 in data22){
if(!(((key9 === "model_calls") || (key9 === "tool_calls")) || (key9 === "tokens"))){
const err38 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key9},message:"must NOT have additional properties",schema:false,parentSchema:schema48,data:data22};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data22.model_calls !== undefined){
let data23 = data22.model_calls;
if((typeof data23 == "number") && (isFinite(data23))){
if(data23 < 0 || isNaN(data23)){
const err39 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.model_calls,data:data23};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
else {
const err40 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.model_calls.type,parentSchema:schema48.properties.model_calls,data:data23};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
if(data22.tool_calls !== undefined){
let data24 = data22.tool_calls;
if((typeof data24 == "number") && (isFinite(data24))){
if(data24 < 0 || isNaN(data24)){
const err41 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tool_calls,data:data24};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
else {
const err42 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tool_calls.type,parentSchema:schema48.properties.tool_calls,data:data24};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data22.tokens !== undefined){
let data25 = data22.tokens;
if((typeof data25 == "number") && (isFinite(data25))){
if(data25 < 0 || isNaN(data25)){
const err43 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tokens,data:data25};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
else {
const err44 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tokens.type,parentSchema:schema48.properties.tokens,data:data25};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
}
else {
const err45 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema48.type,parentSchema:schema48,data:data22};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(data.describe !== undefined){
let data26 = data.describe;
if(typeof data26 !== "string"){
const err46 = {instancePath:instancePath+"/describe",schemaPath:"#/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.describe.type,parentSchema:schema41.properties.describe,data:data26};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
}
else {
const err47 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema50 = {"description":"An MCP server: `command` (stdio) or `url` (Streamable HTTP), exactly one (C100).","type":"object","additionalProperties":false,"properties":{"command":{"description":"stdio: the program that starts the server, e.g. `node`.","type":"string"},"args":{"description":"stdio: its arguments. No secrets here (C102): pass them in `env`.","type":"array","items":{"type":"string"}},"env":{"description":"stdio: names of the worker's environment variables the server gets; besides them it gets only HOME, LOGNAME, PATH, SHELL, TERM and USER. Names only, never `NAME=value` (C102).","type":"array","items":{"type":"string"}},"cwd":{"description":"stdio: its working directory, relative to the contract's folder.","type":"string"},"url":{"description":"Streamable HTTP: the server's endpoint, e.g. `https://crm.example.com/mcp`. No credentials in it (C102).","type":"string"},"headers":{"description":"Streamable HTTP: headers sent with every request: a plain value (nothing secret, C102), or `{ env: NAME, prefix? }`, the value of the worker's environment variable NAME (after `prefix`, e.g. `\"Bearer \"`).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["env"],"properties":{"env":{"description":"The environment variable that holds the value.","type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"prefix":{"description":"Text sent before the value, e.g. `Bearer `.","type":"string"}}}}},"timeout":{"description":"How long one request to this server may take (default 60s): past it the call is abandoned, the server is sent MCP's cancellation notification, and the effect is UNKNOWN, resolved by its lookup. A unit's own timeout cuts a call sooner.","$ref":"#/$defs/duration"},"describe":{"description":"What the server is, for people.","type":"string"}}};
const pattern12 = new RegExp("^[A-Za-z_][A-Za-z0-9_]*$", "u");

function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate27.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((((((key0 === "command") || (key0 === "args")) || (key0 === "env")) || (key0 === "cwd")) || (key0 === "url")) || (key0 === "headers")) || (key0 === "timeout")) || (key0 === "describe"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema50,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.command !== undefined){
let data0 = data.command;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.command.type,parentSchema:schema50.properties.command,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.args !== undefined){
let data1 = data.args;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/args/" + i0,schemaPath:"#/properties/args/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.args.items.type,parentSchema:schema50.properties.args.items,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema50.properties.args.type,parentSchema:schema50.properties.args,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.env !== undefined){
let data3 = data.env;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 !== "string"){
const err4 = {instancePath:instancePath+"/env/" + i1,schemaPath:"#/properties/env/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.env.items.type,parentSchema:schema50.properties.env.items,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema50.properties.env.type,parentSchema:schema50.properties.env,data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.cwd !== undefined){
let data5 = data.cwd;
if(typeof data5 !== "string"){
const err6 = {instancePath:instancePath+"/cwd",schemaPath:"#/properties/cwd/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.cwd.type,parentSchema:schema50.properties.cwd,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.url !== undefined){
let data6 = data.url;
if(typeof data6 !== "string"){
const err7 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.url.type,parentSchema:schema50.properties.url,data:data6};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.headers !== undefined){
let data7 = data.headers;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key1 in data7){
let data8 = data7[key1];
const _errs20 = errors;
let valid6 = true;
const _errs21 = errors;
if(typeof data8 !== "string"){
const err8 = {};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs21 === errors;
errors = _errs20;
if(vErrors !== null){
if(_errs20){
vErrors.length = _errs20;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs23 = errors;
if(typeof data8 !== "string"){
const err9 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/then/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.headers.additionalProperties.then.type,parentSchema:schema50.properties.headers.additionalProperties.then,data:data8};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
var _valid0 = _errs23 === errors;
valid6 = _valid0;
ifClause0 = "then";
}
else {
const _errs25 = errors;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.env === undefined){
const err10 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/else/required",keyword:"required",params:{missingProperty: "env"},message:"must have required property '"+"env"+"'",schema:schema50.properties.headers.additionalProperties.else.required,parentSchema:schema50.properties.headers.additionalProperties.else,data:data8};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
for(const key2 in data8){
if(!((key2 === "env") || (key2 === "prefix"))){
const err11 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema50.properties.headers.additionalProperties.else,data:data8};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data8.env !== undefined){
let data9 = data8.env;
if(typeof data9 === "string"){
if(!pattern12.test(data9)){
const err12 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/env",schemaPath:"#/properties/headers/additionalProperties/else/properties/env/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_]*$",parentSchema:schema50.properties.headers.additionalProperties.else.properties.env,data:data9};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/env",schemaPath:"#/properties/headers/additionalProperties/else/properties/env/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.headers.additionalProperties.else.properties.env.type,parentSchema:schema50.properties.headers.additionalProperties.else.properties.env,data:data9};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data8.prefix !== undefined){
let data10 = data8.prefix;
if(typeof data10 !== "string"){
const err14 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/prefix",schemaPath:"#/properties/headers/additionalProperties/else/properties/prefix/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.headers.additionalProperties.else.properties.prefix.type,parentSchema:schema50.properties.headers.additionalProperties.else.properties.prefix,data:data10};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema50.properties.headers.additionalProperties.else.type,parentSchema:schema50.properties.headers.additionalProperties.else,data:data8};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs25 === errors;
valid6 = _valid0;
ifClause0 = "else";
}
if(!valid6){
const err16 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema50.properties.headers.additionalProperties.if,parentSchema:schema50.properties.headers.additionalProperties,data:data8};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/headers",schemaPath:"#/properties/headers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema50.properties.headers.type,parentSchema:schema50.properties.headers,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.timeout !== undefined){
let data11 = data.timeout;
if(typeof data11 === "string"){
if(!pattern5.test(data11)){
const err18 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.describe !== undefined){
let data12 = data.describe;
if(typeof data12 !== "string"){
const err20 = {instancePath:instancePath+"/describe",schemaPath:"#/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.describe.type,parentSchema:schema50.properties.describe,data:data12};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema50.type,parentSchema:schema50,data};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
validate27.errors = vErrors;
return errors === 0;
}
validate27.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema55 = {"description":"A unit of work.","type":"object","additionalProperties":false,"properties":{"phase":{"description":"Phase label used for grouping (e.g. `extract`, `verify`).","type":"string"},"describe":{"description":"What the unit does, for people.","type":"string"},"needs":{"description":"Upstream units or inputs, each with one edge kind or a list: `content`, `structure`, `policy`, `audience`.","$comment":"Edge kinds are any string on purpose: C070 names an unknown one and suggests the closest.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}},"uses":{"description":"Tools this unit may call.","type":"array","items":{"type":"string"}},"produces":{"description":"Artifacts this unit produces.","type":"array","items":{"type":"string"}},"verify":{"description":"Verifiers that must pass before the unit counts as done.","type":"array","items":{"$ref":"#/$defs/verifierUse"}},"cost":{"$ref":"#/$defs/cost","description":"The unit's own model cost per attempt."},"loop":{"description":"Bounded iteration inside the unit.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most iterations: a positive integer.","$comment":"Untyped on purpose: C021 reports a bound that is missing or not a positive integer, with a fix."},"until":{"description":"Stop early when this expression is true.","type":"string"}}},"retry":{"description":"Extra attempts after the first; overrides `budgets.retries`.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most extra attempts: a non-negative integer.","$comment":"Untyped on purpose: C021 reports a bound that is not a finite non-negative integer."},"backoff":{"description":"How long the unit waits before each extra attempt: `initial`, then `factor` times longer each time, at most `max`, with `jitter`. Defaults: `initial: 1s`, `factor: 2`, `max: 5m`, `jitter: equal`. Policy: never invalidates committed work.","type":"object","additionalProperties":false,"properties":{"initial":{"$ref":"#/$defs/duration","description":"Wait before the first extra attempt, e.g. `1s` (default)."},"max":{"$ref":"#/$defs/duration","description":"Longest wait, e.g. `5m` (default); at least `initial`."},"factor":{"description":"Each wait is this many times the one before: a number from 1 to 100 (default 2; 1 is a constant wait).","type":"number"},"jitter":{"description":"Randomness against retry storms: `equal` (default: half the wait fixed, half random), `full` (anywhere from 0 to the wait) or `none`.","enum":["equal","full","none"]}}}}},"effects":{"description":"How many effects of a `dedup` or `irreversible` tool the unit makes at most (per loop iteration), for a tool whose `key` reads the call's `args`: `{ post_comment: { max: 3 } }`. Without it the unit makes at most one effect of each such tool (C039); the runtime refuses the next distinct key.","type":"object","additionalProperties":{"type":"object","additionalProperties":false,"required":["max"],"properties":{"max":{"description":"Most distinct keys of the tool per run of the unit (per loop iteration): a positive integer.","type":"integer","minimum":1}}}},"approval":{"$ref":"#/$defs/approval","description":"Durable gate before the unit runs."},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit, e.g. `45m`; without it, `task.timeout`, else the default of 30m."},"on_code_change":{"description":"When the code of the unit's handler, or of a tool adapter its work or recovery calls, changed since its result was committed: `ask` (the default: `resume` and `status` report it, `taskspec rerun` re-runs it) or `rerun` (re-run it at the next `resume`).","enum":["ask","rerun"]}}};

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(func1.call(schema55.properties, key0))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema55,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.phase !== undefined){
let data0 = data.phase;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/phase",schemaPath:"#/properties/phase/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema55.properties.phase.type,parentSchema:schema55.properties.phase,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.describe !== undefined){
let data1 = data.describe;
if(typeof data1 !== "string"){
const err2 = {instancePath:instancePath+"/describe",schemaPath:"#/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema55.properties.describe.type,parentSchema:schema55.properties.describe,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.needs !== undefined){
let data2 = data.needs;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
const _errs9 = errors;
if(typeof key1 === "string"){
if(!pattern6.test(key1)){
const err3 = {instancePath:instancePath+"/needs",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/needs",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var valid1 = _errs9 === errors;
if(!valid1){
const err5 = {instancePath:instancePath+"/needs",schemaPath:"#/properties/needs/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema55.properties.needs.propertyNames,parentSchema:schema55.properties.needs,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
for(const key2 in data2){
let data3 = data2[key2];
if((typeof data3 !== "string") && (!(Array.isArray(data3)))){
const err6 = {instancePath:instancePath+"/needs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/needs/additionalProperties/type",keyword:"type",params:{type: schema55.properties.needs.additionalProperties.type},message:"must be string,array",schema:schema55.properties.needs.additionalProperties.type,parentSchema:schema55.properties.needs.additionalProperties,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(typeof data4 !== "string"){
const err7 = {instancePath:instancePath+"/needs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i0,schemaPath:"#/properties/needs/additionalProperties/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema55.properties.needs.additionalProperties.items.type,parentSchema:schema55.properties.needs.additionalProperties.items,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
}
}
else {
const err8 = {instancePath:instancePath+"/needs",schemaPath:"#/properties/needs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.properties.needs.type,parentSchema:schema55.properties.needs,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.uses !== undefined){
let data5 = data.uses;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
if(typeof data6 !== "string"){
const err9 = {instancePath:instancePath+"/uses/" + i1,schemaPath:"#/properties/uses/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema55.properties.uses.items.type,parentSchema:schema55.properties.uses.items,data:data6};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/uses",schemaPath:"#/properties/uses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema55.properties.uses.type,parentSchema:schema55.properties.uses,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.produces !== undefined){
let data7 = data.produces;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
let data8 = data7[i2];
if(typeof data8 !== "string"){
const err11 = {instancePath:instancePath+"/produces/" + i2,schemaPath:"#/properties/produces/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema55.properties.produces.items.type,parentSchema:schema55.properties.produces.items,data:data8};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/produces",schemaPath:"#/properties/produces/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema55.properties.produces.type,parentSchema:schema55.properties.produces,data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.verify !== undefined){
let data9 = data.verify;
if(Array.isArray(data9)){
const len3 = data9.length;
for(let i3=0; i3<len3; i3++){
let data10 = data9[i3];
const _errs29 = errors;
let valid13 = true;
const _errs30 = errors;
if(typeof data10 !== "string"){
const err13 = {};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs30 === errors;
errors = _errs29;
if(vErrors !== null){
if(_errs29){
vErrors.length = _errs29;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs32 = errors;
if(typeof data10 !== "string"){
const err14 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/then/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.then.type,parentSchema:schema34.then,data:data10};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs32 === errors;
valid13 = _valid0;
ifClause0 = "then";
}
else {
const _errs34 = errors;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.check === undefined){
const err15 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/else/required",keyword:"required",params:{missingProperty: "check"},message:"must have required property '"+"check"+"'",schema:schema34.else.required,parentSchema:schema34.else,data:data10};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
for(const key3 in data10){
if(!(key3 === "check")){
const err16 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema34.else,data:data10};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data10.check !== undefined){
let data11 = data10.check;
if(typeof data11 !== "string"){
const err17 = {instancePath:instancePath+"/verify/" + i3+"/check",schemaPath:"#/$defs/verifierUse/else/properties/check/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.else.properties.check.type,parentSchema:schema34.else.properties.check,data:data11};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.else.type,parentSchema:schema34.else,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
var _valid0 = _errs34 === errors;
valid13 = _valid0;
ifClause0 = "else";
}
if(!valid13){
const err19 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema34.if,parentSchema:schema34,data:data10};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/verify",schemaPath:"#/properties/verify/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema55.properties.verify.type,parentSchema:schema55.properties.verify,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.cost !== undefined){
let data12 = data.cost;
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
for(const key4 in data12){
if(!(((key4 === "model_calls") || (key4 === "tool_calls")) || (key4 === "tokens"))){
const err21 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema48,data:data12};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data12.model_calls !== undefined){
let data13 = data12.model_calls;
if((typeof data13 == "number") && (isFinite(data13))){
if(data13 < 0 || isNaN(data13)){
const err22 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.model_calls,data:data13};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
else {
const err23 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.model_calls.type,parentSchema:schema48.properties.model_calls,data:data13};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data12.tool_calls !== undefined){
let data14 = data12.tool_calls;
if((typeof data14 == "number") && (isFinite(data14))){
if(data14 < 0 || isNaN(data14)){
const err24 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tool_calls,data:data14};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tool_calls.type,parentSchema:schema48.properties.tool_calls,data:data14};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data12.tokens !== undefined){
let data15 = data12.tokens;
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 < 0 || isNaN(data15)){
const err26 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tokens,data:data15};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tokens.type,parentSchema:schema48.properties.tokens,data:data15};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema48.type,parentSchema:schema48,data:data12};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.loop !== undefined){
let data16 = data.loop;
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
for(const key5 in data16){
if(!((key5 === "max") || (key5 === "until"))){
const err29 = {instancePath:instancePath+"/loop",schemaPath:"#/properties/loop/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema55.properties.loop,data:data16};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data16.until !== undefined){
let data18 = data16.until;
if(typeof data18 !== "string"){
const err30 = {instancePath:instancePath+"/loop/until",schemaPath:"#/properties/loop/properties/until/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema55.properties.loop.properties.until.type,parentSchema:schema55.properties.loop.properties.until,data:data18};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath:instancePath+"/loop",schemaPath:"#/properties/loop/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.properties.loop.type,parentSchema:schema55.properties.loop,data:data16};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data.retry !== undefined){
let data19 = data.retry;
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
for(const key6 in data19){
if(!((key6 === "max") || (key6 === "backoff"))){
const err32 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema55.properties.retry,data:data19};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data19.backoff !== undefined){
let data21 = data19.backoff;
if(data21 && typeof data21 == "object" && !Array.isArray(data21)){
for(const key7 in data21){
if(!((((key7 === "initial") || (key7 === "max")) || (key7 === "factor")) || (key7 === "jitter"))){
const err33 = {instancePath:instancePath+"/retry/backoff",schemaPath:"#/properties/retry/properties/backoff/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key7},message:"must NOT have additional properties",schema:false,parentSchema:schema55.properties.retry.properties.backoff,data:data21};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data21.initial !== undefined){
let data22 = data21.initial;
if(typeof data22 === "string"){
if(!pattern5.test(data22)){
const err34 = {instancePath:instancePath+"/retry/backoff/initial",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data22};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
else {
const err35 = {instancePath:instancePath+"/retry/backoff/initial",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data22};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data21.max !== undefined){
let data23 = data21.max;
if(typeof data23 === "string"){
if(!pattern5.test(data23)){
const err36 = {instancePath:instancePath+"/retry/backoff/max",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data23};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
else {
const err37 = {instancePath:instancePath+"/retry/backoff/max",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data23};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data21.factor !== undefined){
let data24 = data21.factor;
if(!((typeof data24 == "number") && (isFinite(data24)))){
const err38 = {instancePath:instancePath+"/retry/backoff/factor",schemaPath:"#/properties/retry/properties/backoff/properties/factor/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema55.properties.retry.properties.backoff.properties.factor.type,parentSchema:schema55.properties.retry.properties.backoff.properties.factor,data:data24};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data21.jitter !== undefined){
let data25 = data21.jitter;
if(!(((data25 === "equal") || (data25 === "full")) || (data25 === "none"))){
const err39 = {instancePath:instancePath+"/retry/backoff/jitter",schemaPath:"#/properties/retry/properties/backoff/properties/jitter/enum",keyword:"enum",params:{allowedValues: schema55.properties.retry.properties.backoff.properties.jitter.enum},message:"must be equal to one of the allowed values",schema:schema55.properties.retry.properties.backoff.properties.jitter.enum,parentSchema:schema55.properties.retry.properties.backoff.properties.jitter,data:data25};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
else {
const err40 = {instancePath:instancePath+"/retry/backoff",schemaPath:"#/properties/retry/properties/backoff/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.properties.retry.properties.backoff.type,parentSchema:schema55.properties.retry.properties.backoff,data:data21};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
else {
const err41 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.properties.retry.type,parentSchema:schema55.properties.retry,data:data19};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(data.effects !== undefined){
let data26 = data.effects;
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
for(const key8 in data26){
let data27 = data26[key8];
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
if(data27.max === undefined){
const err42 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/effects/additionalProperties/required",keyword:"required",params:{missingProperty: "max"},message:"must have required property '"+"max"+"'",schema:schema55.properties.effects.additionalProperties.required,parentSchema:schema55.properties.effects.additionalProperties,data:data27};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
for(const key9 in data27){
if(!(key9 === "max")){
const err43 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/effects/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key9},message:"must NOT have additional properties",schema:false,parentSchema:schema55.properties.effects.additionalProperties,data:data27};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
if(data27.max !== undefined){
let data28 = data27.max;
if(!(((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28))) && (isFinite(data28)))){
const err44 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1")+"/max",schemaPath:"#/properties/effects/additionalProperties/properties/max/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema55.properties.effects.additionalProperties.properties.max.type,parentSchema:schema55.properties.effects.additionalProperties.properties.max,data:data28};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
if((typeof data28 == "number") && (isFinite(data28))){
if(data28 < 1 || isNaN(data28)){
const err45 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1")+"/max",schemaPath:"#/properties/effects/additionalProperties/properties/max/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema55.properties.effects.additionalProperties.properties.max,data:data28};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
}
}
else {
const err46 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/effects/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.properties.effects.additionalProperties.type,parentSchema:schema55.properties.effects.additionalProperties,data:data27};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
}
else {
const err47 = {instancePath:instancePath+"/effects",schemaPath:"#/properties/effects/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.properties.effects.type,parentSchema:schema55.properties.effects,data:data26};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data.approval !== undefined){
let data29 = data.approval;
if(!((data29 === "human") || (data29 === "rule"))){
const err48 = {instancePath:instancePath+"/approval",schemaPath:"#/$defs/approval/enum",keyword:"enum",params:{allowedValues: schema46.enum},message:"must be equal to one of the allowed values",schema:schema46.enum,parentSchema:schema46,data:data29};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
if(data.timeout !== undefined){
let data30 = data.timeout;
if(typeof data30 === "string"){
if(!pattern5.test(data30)){
const err49 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data30};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
else {
const err50 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data30};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
if(data.on_code_change !== undefined){
let data31 = data.on_code_change;
if(!((data31 === "ask") || (data31 === "rerun"))){
const err51 = {instancePath:instancePath+"/on_code_change",schemaPath:"#/properties/on_code_change/enum",keyword:"enum",params:{allowedValues: schema55.properties.on_code_change.enum},message:"must be equal to one of the allowed values",schema:schema55.properties.on_code_change.enum,parentSchema:schema55.properties.on_code_change,data:data31};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
}
else {
const err52 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema55.type,parentSchema:schema55,data};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const pattern8 = new RegExp("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="contract.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.contract === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "contract"},message:"must have required property '"+"contract"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.task === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "task"},message:"must have required property '"+"task"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.units === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "units"},message:"must have required property '"+"units"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema31.properties, key0))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.contract !== undefined){
let data0 = data.contract;
if(1 !== data0){
const err4 = {instancePath:instancePath+"/contract",schemaPath:"#/properties/contract/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant",schema:1,parentSchema:schema31.properties.contract,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.task !== undefined){
if(!(validate21(data.task, {instancePath:instancePath+"/task",parentData:data,parentDataProperty:"task",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
if(data.inputs !== undefined){
let data2 = data.inputs;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
const _errs6 = errors;
if(typeof key1 === "string"){
if(!pattern6.test(key1)){
const err5 = {instancePath:instancePath+"/inputs",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/inputs",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var valid1 = _errs6 === errors;
if(!valid1){
const err7 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema31.properties.inputs.propertyNames,parentSchema:schema31.properties.inputs,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
for(const key2 in data2){
let data3 = data2[key2];
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.kind === undefined){
const err8 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/input/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema36.required,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
for(const key3 in data3){
if(!((((((key3 === "kind") || (key3 === "version")) || (key3 === "value")) || (key3 === "volatile")) || (key3 === "describe")) || (key3 === "secret"))){
const err9 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/input/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data3.kind !== undefined){
let data4 = data3.kind;
if(!((((data4 === "snapshot") || (data4 === "decision")) || (data4 === "external")) || (data4 === "artifact"))){
const err10 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/kind",schemaPath:"#/$defs/input/properties/kind/enum",keyword:"enum",params:{allowedValues: schema36.properties.kind.enum},message:"must be equal to one of the allowed values",schema:schema36.properties.kind.enum,parentSchema:schema36.properties.kind,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data3.version !== undefined){
let data5 = data3.version;
if((typeof data5 !== "string") && (!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5))))){
const err11 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/version",schemaPath:"#/$defs/input/properties/version/type",keyword:"type",params:{type: schema36.properties.version.type},message:"must be string,integer",schema:schema36.properties.version.type,parentSchema:schema36.properties.version,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data3.volatile !== undefined){
let data6 = data3.volatile;
if(typeof data6 !== "boolean"){
const err12 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/volatile",schemaPath:"#/$defs/input/properties/volatile/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema36.properties.volatile.type,parentSchema:schema36.properties.volatile,data:data6};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data3.describe !== undefined){
let data7 = data3.describe;
if(typeof data7 !== "string"){
const err13 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/describe",schemaPath:"#/$defs/input/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.properties.describe.type,parentSchema:schema36.properties.describe,data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data3.secret !== undefined){
let data8 = data3.secret;
if(typeof data8 !== "boolean"){
const err14 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/secret",schemaPath:"#/$defs/input/properties/secret/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema36.properties.secret.type,parentSchema:schema36.properties.secret,data:data8};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/input/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema36.type,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.inputs.type,parentSchema:schema31.properties.inputs,data:data2};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.budgets !== undefined){
if(!(validate23(data.budgets, {instancePath:instancePath+"/budgets",parentData:data,parentDataProperty:"budgets",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
}
if(data.queue !== undefined){
let data10 = data.queue;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.name === undefined){
const err17 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/queue/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema39.required,parentSchema:schema39,data:data10};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
for(const key4 in data10){
if(!((key4 === "name") || (key4 === "key"))){
const err18 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/queue/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema39,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data10.name !== undefined){
let data11 = data10.name;
if(typeof data11 === "string"){
if(!pattern8.test(data11)){
const err19 = {instancePath:instancePath+"/queue/name",schemaPath:"#/$defs/queue/properties/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"+"\"",schema:"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",parentSchema:schema39.properties.name,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/queue/name",schemaPath:"#/$defs/queue/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.name.type,parentSchema:schema39.properties.name,data:data11};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data10.key !== undefined){
let data12 = data10.key;
if(typeof data12 !== "string"){
const err21 = {instancePath:instancePath+"/queue/key",schemaPath:"#/$defs/queue/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.key.type,parentSchema:schema39.properties.key,data:data12};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/queue/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.type,parentSchema:schema39,data:data10};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.tools !== undefined){
let data13 = data.tools;
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
for(const key5 in data13){
const _errs34 = errors;
if(typeof key5 === "string"){
if(!pattern6.test(key5)){
const err23 = {instancePath:instancePath+"/tools",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key5,propertyName:key5};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/tools",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key5,propertyName:key5};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
var valid8 = _errs34 === errors;
if(!valid8){
const err25 = {instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/propertyNames",keyword:"propertyNames",params:{propertyName: key5},message:"property name must be valid",schema:schema31.properties.tools.propertyNames,parentSchema:schema31.properties.tools,data:data13};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
for(const key6 in data13){
if(!(validate25(data13[key6], {instancePath:instancePath+"/tools/" + key6.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data13,parentDataProperty:key6,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err26 = {instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.tools.type,parentSchema:schema31.properties.tools,data:data13};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.servers !== undefined){
let data15 = data.servers;
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
for(const key7 in data15){
const _errs41 = errors;
if(typeof key7 === "string"){
if(!pattern6.test(key7)){
const err27 = {instancePath:instancePath+"/servers",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key7,propertyName:key7};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
else {
const err28 = {instancePath:instancePath+"/servers",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key7,propertyName:key7};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
var valid11 = _errs41 === errors;
if(!valid11){
const err29 = {instancePath:instancePath+"/servers",schemaPath:"#/properties/servers/propertyNames",keyword:"propertyNames",params:{propertyName: key7},message:"property name must be valid",schema:schema31.properties.servers.propertyNames,parentSchema:schema31.properties.servers,data:data15};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
for(const key8 in data15){
if(!(validate27(data15[key8], {instancePath:instancePath+"/servers/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data15,parentDataProperty:key8,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
errors = vErrors.length;
}
}
}
else {
const err30 = {instancePath:instancePath+"/servers",schemaPath:"#/properties/servers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.servers.type,parentSchema:schema31.properties.servers,data:data15};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.verifiers !== undefined){
let data17 = data.verifiers;
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
for(const key9 in data17){
const _errs48 = errors;
if(typeof key9 === "string"){
if(!pattern6.test(key9)){
const err31 = {instancePath:instancePath+"/verifiers",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key9,propertyName:key9};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
else {
const err32 = {instancePath:instancePath+"/verifiers",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key9,propertyName:key9};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
var valid14 = _errs48 === errors;
if(!valid14){
const err33 = {instancePath:instancePath+"/verifiers",schemaPath:"#/properties/verifiers/propertyNames",keyword:"propertyNames",params:{propertyName: key9},message:"property name must be valid",schema:schema31.properties.verifiers.propertyNames,parentSchema:schema31.properties.verifiers,data:data17};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
for(const key10 in data17){
let data18 = data17[key10];
const _errs56 = errors;
let valid19 = true;
const _errs57 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
let missing0;
if((data18.kind === undefined) && (missing0 = "kind")){
const err34 = {};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
else {
if(data18.kind !== undefined){
if("rule" !== data18.kind){
const err35 = {};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
}
}
var _valid0 = _errs57 === errors;
errors = _errs56;
if(vErrors !== null){
if(_errs56){
vErrors.length = _errs56;
}
else {
vErrors = null;
}
}
if(_valid0){
const _errs59 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.check === undefined){
const err36 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/0/then/required",keyword:"required",params:{missingProperty: "check"},message:"must have required property '"+"check"+"'",schema:schema53.allOf[0].then.required,parentSchema:schema53.allOf[0].then,data:data18};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
var _valid0 = _errs59 === errors;
valid19 = _valid0;
}
if(!valid19){
const err37 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/0/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema",schema:schema53.allOf[0].if,parentSchema:schema53.allOf[0],data:data18};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
const _errs61 = errors;
let valid21 = true;
const _errs62 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
let missing1;
if((data18.kind === undefined) && (missing1 = "kind")){
const err38 = {};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
else {
if(data18.kind !== undefined){
if("schema" !== data18.kind){
const err39 = {};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
}
var _valid1 = _errs62 === errors;
errors = _errs61;
if(vErrors !== null){
if(_errs61){
vErrors.length = _errs61;
}
else {
vErrors = null;
}
}
if(_valid1){
const _errs64 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.schema === undefined){
const err40 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/1/then/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'",schema:schema53.allOf[1].then.required,parentSchema:schema53.allOf[1].then,data:data18};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
var _valid1 = _errs64 === errors;
valid21 = _valid1;
}
if(!valid21){
const err41 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/1/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema",schema:schema53.allOf[1].if,parentSchema:schema53.allOf[1],data:data18};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.kind === undefined){
const err42 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema53.required,parentSchema:schema53,data:data18};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
for(const key11 in data18){
if(!((((key11 === "kind") || (key11 === "check")) || (key11 === "schema")) || (key11 === "describe"))){
const err43 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key11},message:"must NOT have additional properties",schema:false,parentSchema:schema53,data:data18};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
if(data18.kind !== undefined){
let data21 = data18.kind;
if(!((((data21 === "rule") || (data21 === "schema")) || (data21 === "model")) || (data21 === "human"))){
const err44 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/kind",schemaPath:"#/$defs/verifier/properties/kind/enum",keyword:"enum",params:{allowedValues: schema53.properties.kind.enum},message:"must be equal to one of the allowed values",schema:schema53.properties.kind.enum,parentSchema:schema53.properties.kind,data:data21};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data18.check !== undefined){
let data22 = data18.check;
if(typeof data22 !== "string"){
const err45 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/check",schemaPath:"#/$defs/verifier/properties/check/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema53.properties.check.type,parentSchema:schema53.properties.check,data:data22};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(data18.schema !== undefined){
let data23 = data18.schema;
if(typeof data23 !== "string"){
const err46 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/schema",schemaPath:"#/$defs/verifier/properties/schema/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema53.properties.schema.type,parentSchema:schema53.properties.schema,data:data23};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
if(data18.describe !== undefined){
let data24 = data18.describe;
if(typeof data24 !== "string"){
const err47 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/describe",schemaPath:"#/$defs/verifier/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema53.properties.describe.type,parentSchema:schema53.properties.describe,data:data24};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
}
else {
const err48 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema53.type,parentSchema:schema53,data:data18};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
}
else {
const err49 = {instancePath:instancePath+"/verifiers",schemaPath:"#/properties/verifiers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.verifiers.type,parentSchema:schema31.properties.verifiers,data:data17};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
if(data.units !== undefined){
let data25 = data.units;
if(data25 && typeof data25 == "object" && !Array.isArray(data25)){
for(const key12 in data25){
const _errs75 = errors;
if(typeof key12 === "string"){
if(!pattern6.test(key12)){
const err50 = {instancePath:instancePath+"/units",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key12,propertyName:key12};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
else {
const err51 = {instancePath:instancePath+"/units",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key12,propertyName:key12};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
var valid24 = _errs75 === errors;
if(!valid24){
const err52 = {instancePath:instancePath+"/units",schemaPath:"#/properties/units/propertyNames",keyword:"propertyNames",params:{propertyName: key12},message:"property name must be valid",schema:schema31.properties.units.propertyNames,parentSchema:schema31.properties.units,data:data25};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
for(const key13 in data25){
if(!(validate29(data25[key13], {instancePath:instancePath+"/units/" + key13.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data25,parentDataProperty:key13,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate29.errors : vErrors.concat(validate29.errors);
errors = vErrors.length;
}
}
}
else {
const err53 = {instancePath:instancePath+"/units",schemaPath:"#/properties/units/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.units.type,parentSchema:schema31.properties.units,data:data25};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
if(data.impact !== undefined){
let data27 = data.impact;
if(Array.isArray(data27)){
const len0 = data27.length;
for(let i0=0; i0<len0; i0++){
let data28 = data27[i0];
if(data28 && typeof data28 == "object" && !Array.isArray(data28)){
if(data28.on === undefined){
const err54 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/required",keyword:"required",params:{missingProperty: "on"},message:"must have required property '"+"on"+"'",schema:schema63.required,parentSchema:schema63,data:data28};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
if(data28.invalidate === undefined){
const err55 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/required",keyword:"required",params:{missingProperty: "invalidate"},message:"must have required property '"+"invalidate"+"'",schema:schema63.required,parentSchema:schema63,data:data28};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
for(const key14 in data28){
if(!(((key14 === "on") || (key14 === "at")) || (key14 === "invalidate"))){
const err56 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key14},message:"must NOT have additional properties",schema:false,parentSchema:schema63,data:data28};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
if(data28.on !== undefined){
let data29 = data28.on;
if(typeof data29 !== "string"){
const err57 = {instancePath:instancePath+"/impact/" + i0+"/on",schemaPath:"#/$defs/impactRule/properties/on/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.on.type,parentSchema:schema63.properties.on,data:data29};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(data28.at !== undefined){
let data30 = data28.at;
if(typeof data30 !== "string"){
const err58 = {instancePath:instancePath+"/impact/" + i0+"/at",schemaPath:"#/$defs/impactRule/properties/at/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.at.type,parentSchema:schema63.properties.at,data:data30};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
if(data28.invalidate !== undefined){
let data31 = data28.invalidate;
if(Array.isArray(data31)){
const len1 = data31.length;
for(let i1=0; i1<len1; i1++){
let data32 = data31[i1];
if(typeof data32 !== "string"){
const err59 = {instancePath:instancePath+"/impact/" + i0+"/invalidate/" + i1,schemaPath:"#/$defs/impactRule/properties/invalidate/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.invalidate.items.type,parentSchema:schema63.properties.invalidate.items,data:data32};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
}
else {
const err60 = {instancePath:instancePath+"/impact/" + i0+"/invalidate",schemaPath:"#/$defs/impactRule/properties/invalidate/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema63.properties.invalidate.type,parentSchema:schema63.properties.invalidate,data:data31};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
}
else {
const err61 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema63.type,parentSchema:schema63,data:data28};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
}
else {
const err62 = {instancePath:instancePath+"/impact",schemaPath:"#/properties/impact/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.impact.type,parentSchema:schema31.properties.impact,data:data27};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
}
else {
const err63 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validateConfig = validate31;
const schema64 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"config.schema.json","title":"taskspec configuration (taskspec.config.yaml)","description":"Per-code severity, path overrides and ignored contracts for taskspec check, compile and the language server. Found upward from each contract; the nearest file wins.","type":"object","additionalProperties":false,"properties":{"$schema":{"type":"string","description":"Where editors find this schema."},"rules":{"$ref":"#/$defs/rules"},"ignore":{"$ref":"#/$defs/globs","description":"Contracts (globs relative to this file) that check and the language server leave alone."},"overrides":{"type":"array","description":"Rules for some paths; later entries win over earlier ones and over the top-level rules.","items":{"type":"object","additionalProperties":false,"required":["files","rules"],"properties":{"files":{"$ref":"#/$defs/globs","description":"Globs relative to this file."},"rules":{"$ref":"#/$defs/rules"}}}}},"$defs":{"setting":{"enum":["off","warning","error"],"description":"off drops the diagnostic, warning and error set its severity."},"rules":{"type":"object","additionalProperties":false,"description":"Severity per diagnostic code. Only warnings can be turned off or lowered; any code can be made an error.","properties":{"C001":{"const":"error","description":"C001 is an error: it can be named (as error) but not turned off or lowered."},"C002":{"const":"error","description":"C002 is an error: it can be named (as error) but not turned off or lowered."},"C010":{"const":"error","description":"C010 is an error: it can be named (as error) but not turned off or lowered."},"C011":{"const":"error","description":"C011 is an error: it can be named (as error) but not turned off or lowered."},"C012":{"const":"error","description":"C012 is an error: it can be named (as error) but not turned off or lowered."},"C013":{"const":"error","description":"C013 is an error: it can be named (as error) but not turned off or lowered."},"C014":{"const":"error","description":"C014 is an error: it can be named (as error) but not turned off or lowered."},"C020":{"const":"error","description":"C020 is an error: it can be named (as error) but not turned off or lowered."},"C021":{"const":"error","description":"C021 is an error: it can be named (as error) but not turned off or lowered."},"C022":{"$ref":"#/$defs/setting"},"C030":{"const":"error","description":"C030 is an error: it can be named (as error) but not turned off or lowered."},"C031":{"const":"error","description":"C031 is an error: it can be named (as error) but not turned off or lowered."},"C032":{"const":"error","description":"C032 is an error: it can be named (as error) but not turned off or lowered."},"C033":{"const":"error","description":"C033 is an error: it can be named (as error) but not turned off or lowered."},"C034":{"const":"error","description":"C034 is an error: it can be named (as error) but not turned off or lowered."},"C035":{"$ref":"#/$defs/setting"},"C036":{"$ref":"#/$defs/setting"},"C037":{"const":"error","description":"C037 is an error: it can be named (as error) but not turned off or lowered."},"C038":{"$ref":"#/$defs/setting"},"C039":{"const":"error","description":"C039 is an error: it can be named (as error) but not turned off or lowered."},"C040":{"$ref":"#/$defs/setting"},"C041":{"const":"error","description":"C041 is an error: it can be named (as error) but not turned off or lowered."},"C050":{"const":"error","description":"C050 is an error: it can be named (as error) but not turned off or lowered."},"C051":{"const":"error","description":"C051 is an error: it can be named (as error) but not turned off or lowered."},"C052":{"$ref":"#/$defs/setting"},"C060":{"const":"error","description":"C060 is an error: it can be named (as error) but not turned off or lowered."},"C070":{"const":"error","description":"C070 is an error: it can be named (as error) but not turned off or lowered."},"C080":{"$ref":"#/$defs/setting"},"C090":{"$ref":"#/$defs/setting"},"C091":{"const":"error","description":"C091 is an error: it can be named (as error) but not turned off or lowered."},"C100":{"const":"error","description":"C100 is an error: it can be named (as error) but not turned off or lowered."},"C101":{"const":"error","description":"C101 is an error: it can be named (as error) but not turned off or lowered."},"C102":{"const":"error","description":"C102 is an error: it can be named (as error) but not turned off or lowered."},"C103":{"const":"error","description":"C103 is an error: it can be named (as error) but not turned off or lowered."},"C104":{"const":"error","description":"C104 is an error: it can be named (as error) but not turned off or lowered."},"C105":{"const":"error","description":"C105 is an error: it can be named (as error) but not turned off or lowered."},"C106":{"const":"error","description":"C106 is an error: it can be named (as error) but not turned off or lowered."},"C107":{"const":"error","description":"C107 is an error: it can be named (as error) but not turned off or lowered."}}},"globs":{"type":"array","items":{"type":"string","minLength":1}}}};
const schema74 = {"type":"array","items":{"type":"string","minLength":1}};
const schema65 = {"type":"object","additionalProperties":false,"description":"Severity per diagnostic code. Only warnings can be turned off or lowered; any code can be made an error.","properties":{"C001":{"const":"error","description":"C001 is an error: it can be named (as error) but not turned off or lowered."},"C002":{"const":"error","description":"C002 is an error: it can be named (as error) but not turned off or lowered."},"C010":{"const":"error","description":"C010 is an error: it can be named (as error) but not turned off or lowered."},"C011":{"const":"error","description":"C011 is an error: it can be named (as error) but not turned off or lowered."},"C012":{"const":"error","description":"C012 is an error: it can be named (as error) but not turned off or lowered."},"C013":{"const":"error","description":"C013 is an error: it can be named (as error) but not turned off or lowered."},"C014":{"const":"error","description":"C014 is an error: it can be named (as error) but not turned off or lowered."},"C020":{"const":"error","description":"C020 is an error: it can be named (as error) but not turned off or lowered."},"C021":{"const":"error","description":"C021 is an error: it can be named (as error) but not turned off or lowered."},"C022":{"$ref":"#/$defs/setting"},"C030":{"const":"error","description":"C030 is an error: it can be named (as error) but not turned off or lowered."},"C031":{"const":"error","description":"C031 is an error: it can be named (as error) but not turned off or lowered."},"C032":{"const":"error","description":"C032 is an error: it can be named (as error) but not turned off or lowered."},"C033":{"const":"error","description":"C033 is an error: it can be named (as error) but not turned off or lowered."},"C034":{"const":"error","description":"C034 is an error: it can be named (as error) but not turned off or lowered."},"C035":{"$ref":"#/$defs/setting"},"C036":{"$ref":"#/$defs/setting"},"C037":{"const":"error","description":"C037 is an error: it can be named (as error) but not turned off or lowered."},"C038":{"$ref":"#/$defs/setting"},"C039":{"const":"error","description":"C039 is an error: it can be named (as error) but not turned off or lowered."},"C040":{"$ref":"#/$defs/setting"},"C041":{"const":"error","description":"C041 is an error: it can be named (as error) but not turned off or lowered."},"C050":{"const":"error","description":"C050 is an error: it can be named (as error) but not turned off or lowered."},"C051":{"const":"error","description":"C051 is an error: it can be named (as error) but not turned off or lowered."},"C052":{"$ref":"#/$defs/setting"},"C060":{"const":"error","description":"C060 is an error: it can be named (as error) but not turned off or lowered."},"C070":{"const":"error","description":"C070 is an error: it can be named (as error) but not turned off or lowered."},"C080":{"$ref":"#/$defs/setting"},"C090":{"$ref":"#/$defs/setting"},"C091":{"const":"error","description":"C091 is an error: it can be named (as error) but not turned off or lowered."},"C100":{"const":"error","description":"C100 is an error: it can be named (as error) but not turned off or lowered."},"C101":{"const":"error","description":"C101 is an error: it can be named (as error) but not turned off or lowered."},"C102":{"const":"error","description":"C102 is an error: it can be named (as error) but not turned off or lowered."},"C103":{"const":"error","description":"C103 is an error: it can be named (as error) but not turned off or lowered."},"C104":{"const":"error","description":"C104 is an error: it can be named (as error) but not turned off or lowered."},"C105":{"const":"error","description":"C105 is an error: it can be named (as error) but not turned off or lowered."},"C106":{"const":"error","description":"C106 is an error: it can be named (as error) but not turned off or lowered."},"C107":{"const":"error","description":"C107 is an error: it can be named (as error) but not turned off or lowered."}}};
const schema66 = {"enum":["off","warning","error"],"description":"off drops the diagnostic, warning and error set its severity."};

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate32.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(func1.call(schema65.properties, key0))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.C001 !== undefined){
let data0 = data.C001;
if("error" !== data0){
const err1 = {instancePath:instancePath+"/C001",schemaPath:"#/properties/C001/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C001,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.C002 !== undefined){
let data1 = data.C002;
if("error" !== data1){
const err2 = {instancePath:instancePath+"/C002",schemaPath:"#/properties/C002/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C002,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.C010 !== undefined){
let data2 = data.C010;
if("error" !== data2){
const err3 = {instancePath:instancePath+"/C010",schemaPath:"#/properties/C010/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C010,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.C011 !== undefined){
let data3 = data.C011;
if("error" !== data3){
const err4 = {instancePath:instancePath+"/C011",schemaPath:"#/properties/C011/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C011,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.C012 !== undefined){
let data4 = data.C012;
if("error" !== data4){
const err5 = {instancePath:instancePath+"/C012",schemaPath:"#/properties/C012/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C012,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.C013 !== undefined){
let data5 = data.C013;
if("error" !== data5){
const err6 = {instancePath:instancePath+"/C013",schemaPath:"#/properties/C013/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C013,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.C014 !== undefined){
let data6 = data.C014;
if("error" !== data6){
const err7 = {instancePath:instancePath+"/C014",schemaPath:"#/properties/C014/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C014,data:data6};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.C020 !== undefined){
let data7 = data.C020;
if("error" !== data7){
const err8 = {instancePath:instancePath+"/C020",schemaPath:"#/properties/C020/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C020,data:data7};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.C021 !== undefined){
let data8 = data.C021;
if("error" !== data8){
const err9 = {instancePath:instancePath+"/C021",schemaPath:"#/properties/C021/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C021,data:data8};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.C022 !== undefined){
let data9 = data.C022;
if(!(((data9 === "off") || (data9 === "warning")) || (data9 === "error"))){
const err10 = {instancePath:instancePath+"/C022",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data9};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.C030 !== undefined){
let data10 = data.C030;
if("error" !== data10){
const err11 = {instancePath:instancePath+"/C030",schemaPath:"#/properties/C030/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C030,data:data10};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.C031 !== undefined){
let data11 = data.C031;
if("error" !== data11){
const err12 = {instancePath:instancePath+"/C031",schemaPath:"#/properties/C031/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C031,data:data11};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.C032 !== undefined){
let data12 = data.C032;
if("error" !== data12){
const err13 = {instancePath:instancePath+"/C032",schemaPath:"#/properties/C032/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C032,data:data12};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.C033 !== undefined){
let data13 = data.C033;
if("error" !== data13){
const err14 = {instancePath:instancePath+"/C033",schemaPath:"#/properties/C033/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C033,data:data13};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.C034 !== undefined){
let data14 = data.C034;
if("error" !== data14){
const err15 = {instancePath:instancePath+"/C034",schemaPath:"#/properties/C034/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C034,data:data14};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.C035 !== undefined){
let data15 = data.C035;
if(!(((data15 === "off") || (data15 === "warning")) || (data15 === "error"))){
const err16 = {instancePath:instancePath+"/C035",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data15};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.C036 !== undefined){
let data16 = data.C036;
if(!(((data16 === "off") || (data16 === "warning")) || (data16 === "error"))){
const err17 = {instancePath:instancePath+"/C036",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data16};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.C037 !== undefined){
let data17 = data.C037;
if("error" !== data17){
const err18 = {instancePath:instancePath+"/C037",schemaPath:"#/properties/C037/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C037,data:data17};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.C038 !== undefined){
let data18 = data.C038;
if(!(((data18 === "off") || (data18 === "warning")) || (data18 === "error"))){
const err19 = {instancePath:instancePath+"/C038",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data18};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.C039 !== undefined){
let data19 = data.C039;
if("error" !== data19){
const err20 = {instancePath:instancePath+"/C039",schemaPath:"#/properties/C039/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C039,data:data19};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.C040 !== undefined){
let data20 = data.C040;
if(!(((data20 === "off") || (data20 === "warning")) || (data20 === "error"))){
const err21 = {instancePath:instancePath+"/C040",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data20};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.C041 !== undefined){
let data21 = data.C041;
if("error" !== data21){
const err22 = {instancePath:instancePath+"/C041",schemaPath:"#/properties/C041/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C041,data:data21};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.C050 !== undefined){
let data22 = data.C050;
if("error" !== data22){
const err23 = {instancePath:instancePath+"/C050",schemaPath:"#/properties/C050/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C050,data:data22};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.C051 !== undefined){
let data23 = data.C051;
if("error" !== data23){
const err24 = {instancePath:instancePath+"/C051",schemaPath:"#/properties/C051/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C051,data:data23};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.C052 !== undefined){
let data24 = data.C052;
if(!(((data24 === "off") || (data24 === "warning")) || (data24 === "error"))){
const err25 = {instancePath:instancePath+"/C052",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data24};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.C060 !== undefined){
let data25 = data.C060;
if("error" !== data25){
const err26 = {instancePath:instancePath+"/C060",schemaPath:"#/properties/C060/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C060,data:data25};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.C070 !== undefined){
let data26 = data.C070;
if("error" !== data26){
const err27 = {instancePath:instancePath+"/C070",schemaPath:"#/properties/C070/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C070,data:data26};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data.C080 !== undefined){
let data27 = data.C080;
if(!(((data27 === "off") || (data27 === "warning")) || (data27 === "error"))){
const err28 = {instancePath:instancePath+"/C080",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data27};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.C090 !== undefined){
let data28 = data.C090;
if(!(((data28 === "off") || (data28 === "warning")) || (data28 === "error"))){
const err29 = {instancePath:instancePath+"/C090",schemaPath:"#/$defs/setting/enum",keyword:"enum",params:{allowedValues: schema66.enum},message:"must be equal to one of the allowed values",schema:schema66.enum,parentSchema:schema66,data:data28};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.C091 !== undefined){
let data29 = data.C091;
if("error" !== data29){
const err30 = {instancePath:instancePath+"/C091",schemaPath:"#/properties/C091/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C091,data:data29};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.C100 !== undefined){
let data30 = data.C100;
if("error" !== data30){
const err31 = {instancePath:instancePath+"/C100",schemaPath:"#/properties/C100/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C100,data:data30};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data.C101 !== undefined){
let data31 = data.C101;
if("error" !== data31){
const err32 = {instancePath:instancePath+"/C101",schemaPath:"#/properties/C101/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C101,data:data31};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data.C102 !== undefined){
let data32 = data.C102;
if("error" !== data32){
const err33 = {instancePath:instancePath+"/C102",schemaPath:"#/properties/C102/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C102,data:data32};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data.C103 !== undefined){
let data33 = data.C103;
if("error" !== data33){
const err34 = {instancePath:instancePath+"/C103",schemaPath:"#/properties/C103/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C103,data:data33};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data.C104 !== undefined){
let data34 = data.C104;
if("error" !== data34){
const err35 = {instancePath:instancePath+"/C104",schemaPath:"#/properties/C104/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C104,data:data34};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data.C105 !== undefined){
let data35 = data.C105;
if("error" !== data35){
const err36 = {instancePath:instancePath+"/C105",schemaPath:"#/properties/C105/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C105,data:data35};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data.C106 !== undefined){
let data36 = data.C106;
if("error" !== data36){
const err37 = {instancePath:instancePath+"/C106",schemaPath:"#/properties/C106/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C106,data:data36};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data.C107 !== undefined){
let data37 = data.C107;
if("error" !== data37){
const err38 = {instancePath:instancePath+"/C107",schemaPath:"#/properties/C107/const",keyword:"const",params:{allowedValue: "error"},message:"must be equal to constant",schema:"error",parentSchema:schema65.properties.C107,data:data37};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
}
else {
const err39 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema65.type,parentSchema:schema65,data};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
validate32.errors = vErrors;
return errors === 0;
}
validate32.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const func5 = typeof func5Module === "function" ? func5Module : func5Module.default;

function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="config.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate31.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((key0 === "$schema") || (key0 === "rules")) || (key0 === "ignore")) || (key0 === "overrides"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema64,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.$schema !== undefined){
let data0 = data.$schema;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema64.properties.$schema.type,parentSchema:schema64.properties.$schema,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.rules !== undefined){
if(!(validate32(data.rules, {instancePath:instancePath+"/rules",parentData:data,parentDataProperty:"rules",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate32.errors : vErrors.concat(validate32.errors);
errors = vErrors.length;
}
}
if(data.ignore !== undefined){
let data2 = data.ignore;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(typeof data3 === "string"){
if(func5(data3) < 1){
const err2 = {instancePath:instancePath+"/ignore/" + i0,schemaPath:"#/$defs/globs/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema74.items,data:data3};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
else {
const err3 = {instancePath:instancePath+"/ignore/" + i0,schemaPath:"#/$defs/globs/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema74.items.type,parentSchema:schema74.items,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/ignore",schemaPath:"#/$defs/globs/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema74.type,parentSchema:schema74,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.overrides !== undefined){
let data4 = data.overrides;
if(Array.isArray(data4)){
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
let data5 = data4[i1];
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.files === undefined){
const err5 = {instancePath:instancePath+"/overrides/" + i1,schemaPath:"#/properties/overrides/items/required",keyword:"required",params:{missingProperty: "files"},message:"must have required property '"+"files"+"'",schema:schema64.properties.overrides.items.required,parentSchema:schema64.properties.overrides.items,data:data5};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data5.rules === undefined){
const err6 = {instancePath:instancePath+"/overrides/" + i1,schemaPath:"#/properties/overrides/items/required",keyword:"required",params:{missingProperty: "rules"},message:"must have required property '"+"rules"+"'",schema:schema64.properties.overrides.items.required,parentSchema:schema64.properties.overrides.items,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
for(const key1 in data5){
if(!((key1 === "files") || (key1 === "rules"))){
const err7 = {instancePath:instancePath+"/overrides/" + i1,schemaPath:"#/properties/overrides/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema64.properties.overrides.items,data:data5};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data5.files !== undefined){
let data6 = data5.files;
if(Array.isArray(data6)){
const len2 = data6.length;
for(let i2=0; i2<len2; i2++){
let data7 = data6[i2];
if(typeof data7 === "string"){
if(func5(data7) < 1){
const err8 = {instancePath:instancePath+"/overrides/" + i1+"/files/" + i2,schemaPath:"#/$defs/globs/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema74.items,data:data7};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/overrides/" + i1+"/files/" + i2,schemaPath:"#/$defs/globs/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema74.items.type,parentSchema:schema74.items,data:data7};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/overrides/" + i1+"/files",schemaPath:"#/$defs/globs/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema74.type,parentSchema:schema74,data:data6};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data5.rules !== undefined){
if(!(validate32(data5.rules, {instancePath:instancePath+"/overrides/" + i1+"/rules",parentData:data5,parentDataProperty:"rules",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate32.errors : vErrors.concat(validate32.errors);
errors = vErrors.length;
}
}
}
else {
const err11 = {instancePath:instancePath+"/overrides/" + i1,schemaPath:"#/properties/overrides/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema64.properties.overrides.items.type,parentSchema:schema64.properties.overrides.items,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/overrides",schemaPath:"#/properties/overrides/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema64.properties.overrides.type,parentSchema:schema64.properties.overrides,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema64.type,parentSchema:schema64,data};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
validate31.errors = vErrors;
return errors === 0;
}
validate31.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const acceptContract = validate35;
const schema76 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"accept-contract","title":"taskspec task contract, version 1","description":"A task contract (*.task.yaml): units of work with inputs, outputs, dependencies and verifiers, tools with recovery classes, and budgets.","type":"object","additionalProperties":false,"required":["contract","task","units"],"properties":{"contract":{"description":"Format version of the contract language; must be 1.","const":1},"task":{"$ref":"#/$defs/task"},"inputs":{"description":"Named inputs the units depend on: sources, decisions, external state. Each is a node of the dependency graph.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/input"}},"budgets":{"$ref":"#/$defs/budgets"},"queue":{"$ref":"#/$defs/queue"},"tools":{"description":"Every tool a unit may call, each with a recovery class that says what recovery may do after a crash.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/tool"}},"servers":{"description":"MCP servers (Model Context Protocol) whose tools `tools.*.mcp` binds: each started as a local process over stdio (`command`) or reached over Streamable HTTP (`url`).","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/server"}},"verifiers":{"description":"Named checks used by units (`verify`) and by `task.done`.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/verifier"}},"units":{"description":"The work units: the nodes of the dependency graph.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":true},"impact":{"description":"Rules that widen invalidation (they never narrow it).","type":"array","items":{"$ref":"#/$defs/impactRule"}}},"$defs":{"name":{"description":"A name: letters, digits, `_` and `-`, not starting with `-`.","type":"string","pattern":"^[A-Za-z0-9_][A-Za-z0-9_-]*$"},"duration":{"description":"A duration such as `45m`, `36h`, `90s`, `500ms` or `2d`.","type":"string","pattern":"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},"approval":{"description":"Who approves: `human` (a person) or `rule` (an automatic rule).","enum":["human","rule"]},"cost":{"description":"Cost per attempt (units) or per call (tools).","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Model calls.","type":"number","minimum":0},"tool_calls":{"description":"Tool calls.","type":"number","minimum":0},"tokens":{"description":"Model tokens.","type":"number","minimum":0}}},"verifierUse":{"description":"A declared verifier's name, or an inline check `{ check: \"...\" }`.","if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["check"],"properties":{"check":{"description":"An expression that must be true, e.g. `count(result.claims) >= 1`.","type":"string"}}}},"task":{"description":"Identity, goal and end-to-end verifiers of the task.","type":"object","additionalProperties":false,"required":["id","goal"],"properties":{"id":{"description":"Stable id: lowercase letters, digits, `.`, `_`, `-`.","type":"string","pattern":"^[a-z0-9][a-z0-9._-]*$"},"version":{"description":"Contract version; bump it when the goal changes. Defaults to 1.","type":"integer","minimum":1},"goal":{"description":"What the task must achieve, in one sentence.","type":"string"},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit of every unit without its own `timeout`, e.g. `10m`. Without either, a unit gets the runtime's default of 30m."},"forbid":{"description":"Things the task must never do.","type":"array","items":{"type":"string"}},"outputs":{"description":"Artifacts the task delivers; each is produced by exactly one unit.","type":"array","items":{"type":"string"}},"done":{"description":"End-to-end verifiers: the task is finished only when these pass on the final world.","type":"array","items":{"$ref":"#/$defs/verifierUse"}}}},"input":{"description":"A named input.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`snapshot` (fixed set), `decision` (a choice made by people), `external` (live world state) or `artifact` (a file from outside).","enum":["snapshot","decision","external","artifact"]},"version":{"description":"Version of a snapshot or artifact; changing it invalidates what depends on it.","type":["string","integer"]},"value":{"description":"Value of a decision; changing it invalidates what depends on it."},"volatile":{"description":"Evidence read from it expires and is re-read on resume (default true for `external`).","type":"boolean"},"describe":{"description":"What this input is, for people.","type":"string"},"secret":{"description":"The value is a secret: never stored (only its digest), never in events, masked as `***` in `status`, `handoff`, messages and the editor. Give it with an input reader, not a `value` in the contract (C037).","type":"boolean"}}},"queue":{"description":"The work queue the workers of a shared store serve this task's runs from (`taskspec submit`, `taskspec worker`). Absent: the queue `default`. A run's own `submit --queue` overrides `name`.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"description":"The queue's name: letters, digits, `.`, `_` and `-`, at most 64. Workers may serve only some queues (`--queue`) and limit each (`--queue-limit`).","type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"},"key":{"description":"A template for the tenant the run belongs to, e.g. `${inputs.customer}`: runs of one queue take turns by key, so a tenant with many runs does not starve one with few. Sees `task`, `run` and `inputs`. Absent: all runs of the queue are one tenant.","type":"string"}}},"budgets":{"description":"Hard caps that survive crashes.","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Cap on model calls for the whole run.","type":"number","minimum":0},"tool_calls":{"description":"Cap on tool calls for the whole run.","type":"number","minimum":0},"tokens":{"description":"Cap on model tokens for the whole run.","type":"number","minimum":0},"wall_clock":{"$ref":"#/$defs/duration","description":"Cap on elapsed time, e.g. `36h`."},"retries":{"description":"Default extra attempts per unit (units may override with `retry`).","type":"integer","minimum":0}}},"tool":{"description":"A tool and its recovery class.","type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"Recovery class: `read`, `idempotent`, `dedup`, `compensable` or `irreversible`.","enum":["read","idempotent","dedup","compensable","irreversible"]},"key":{"description":"Business key template, e.g. `task:${task.id}:${unit.id}`; required for `dedup`.","type":"string"},"lookup":{"description":"A `read` tool that finds the effect by key when its outcome is unknown.","type":"string"},"args":{"description":"What the ledger may keep of the tool's arguments. By default only their names (and digests of their values); `safe: true` keeps an argument's value in the effect's intent, `secret: true` keeps not even its digest and masks it as `***`.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/argument"}},"result":{"description":"Fields of the tool's result and their types (`{ type, secret: true }` for a field the ledger must never store).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"$ref":"#/$defs/resultType"},"else":{"type":"object","additionalProperties":false,"required":["type"],"properties":{"type":{"$ref":"#/$defs/resultType"},"secret":{"description":"The field is a secret: the ledger never stores it, and the receipt the handler gets lacks it (the first call's as a reused effect's: the same receipt every time).","type":"boolean"}}}}},"compensate":{"description":"How to undo a committed call: the compensator tool and its arguments.","type":"object","additionalProperties":false,"required":["tool"],"properties":{"tool":{"description":"The compensator; an `idempotent` or `dedup` tool.","type":"string"},"with":{"description":"Arguments, as templates over `result`, e.g. `${result.booking_id}`.","type":"object","additionalProperties":{"type":"string"}},"compensated":{"description":"When the undo is verified: an expression over `result`, the record the tool's lookup answers after the compensator ran, true when the effect is undone, e.g. `result.status == \"voided\"`. A lookup answering null (nothing there) is always compensated. Default: `result.status == \"cancelled\"`. Never invalidates committed work.","type":"string"}}},"approval":{"$ref":"#/$defs/approval","description":"Who may approve a use of this tool; units that use it declare the gate."},"mcp":{"$ref":"#/$defs/mcpBinding"},"cost":{"$ref":"#/$defs/cost","description":"Cost per call."},"describe":{"description":"What the tool does, for people.","type":"string"}}},"server":{"description":"An MCP server: `command` (stdio) or `url` (Streamable HTTP), exactly one (C100).","type":"object","additionalProperties":false,"properties":{"command":{"description":"stdio: the program that starts the server, e.g. `node`.","type":"string"},"args":{"description":"stdio: its arguments. No secrets here (C102): pass them in `env`.","type":"array","items":{"type":"string"}},"env":{"description":"stdio: names of the worker's environment variables the server gets; besides them it gets only HOME, LOGNAME, PATH, SHELL, TERM and USER. Names only, never `NAME=value` (C102).","type":"array","items":{"type":"string"}},"cwd":{"description":"stdio: its working directory, relative to the contract's folder.","type":"string"},"url":{"description":"Streamable HTTP: the server's endpoint, e.g. `https://crm.example.com/mcp`. No credentials in it (C102).","type":"string"},"headers":{"description":"Streamable HTTP: headers sent with every request: a plain value (nothing secret, C102), or `{ env: NAME, prefix? }`, the value of the worker's environment variable NAME (after `prefix`, e.g. `\"Bearer \"`).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["env"],"properties":{"env":{"description":"The environment variable that holds the value.","type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"prefix":{"description":"Text sent before the value, e.g. `Bearer `.","type":"string"}}}}},"timeout":{"description":"How long one request to this server may take (default 60s): past it the call is abandoned, the server is sent MCP's cancellation notification, and the effect is UNKNOWN, resolved by its lookup. A unit's own timeout cuts a call sooner.","$ref":"#/$defs/duration"},"describe":{"description":"What the server is, for people.","type":"string"}}},"mcpBinding":{"description":"The tool is a tool of an MCP server: the runtime calls it from the worker, through the ledger.","type":"object","additionalProperties":false,"required":["server","tool"],"properties":{"server":{"description":"A server declared under `servers` (C100).","type":"string"},"tool":{"description":"The tool's name on that server.","type":"string"},"key_arg":{"description":"The argument the rendered `key` is passed in (the server de-duplicates by it; a lookup finds the effect by it). A tool with a `key` needs it, or a bound `lookup` that has it (C101).","type":"string"}}},"resultType":{"description":"The type of a result field.","enum":["string","number","boolean","list","object","any"]},"argument":{"description":"What the ledger keeps of one argument.","type":"object","additionalProperties":false,"properties":{"secret":{"description":"The value is a secret: no digest of it is stored, it is masked as `***` in a held request, `status` and `handoff`, and a `key` must not read it (C037).","type":"boolean"},"safe":{"description":"The value is not sensitive: the effect's intent shows it (`send_email(to=ops@example.com, body)`), clipped and with credential-shaped text masked.","type":"boolean"},"describe":{"description":"What the argument is, for people.","type":"string"}}},"verifier":{"description":"A named check.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`rule` (an expression), `schema` (a JSON Schema file), `model` (soft, judged by a model) or `human`.","enum":["rule","schema","model","human"]},"check":{"description":"For `rule`: an expression that must be true.","type":"string"},"schema":{"description":"For `schema`: path of the JSON Schema the result must satisfy.","type":"string"},"describe":{"description":"What is checked, for people (and the prompt of a `model` verifier).","type":"string"}},"allOf":[{"if":{"properties":{"kind":{"const":"rule"}},"required":["kind"]},"then":{"required":["check"]}},{"if":{"properties":{"kind":{"const":"schema"}},"required":["kind"]},"then":{"required":["schema"]}}]},"unit":{"description":"A unit of work.","type":"object","additionalProperties":false,"properties":{"phase":{"description":"Phase label used for grouping (e.g. `extract`, `verify`).","type":"string"},"describe":{"description":"What the unit does, for people.","type":"string"},"needs":{"description":"Upstream units or inputs, each with one edge kind or a list: `content`, `structure`, `policy`, `audience`.","$comment":"Edge kinds are any string on purpose: C070 names an unknown one and suggests the closest.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}},"uses":{"description":"Tools this unit may call.","type":"array","items":{"type":"string"}},"produces":{"description":"Artifacts this unit produces.","type":"array","items":{"type":"string"}},"verify":{"description":"Verifiers that must pass before the unit counts as done.","type":"array","items":{"$ref":"#/$defs/verifierUse"}},"cost":{"$ref":"#/$defs/cost","description":"The unit's own model cost per attempt."},"loop":{"description":"Bounded iteration inside the unit.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most iterations: a positive integer.","$comment":"Untyped on purpose: C021 reports a bound that is missing or not a positive integer, with a fix."},"until":{"description":"Stop early when this expression is true.","type":"string"}}},"retry":{"description":"Extra attempts after the first; overrides `budgets.retries`.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most extra attempts: a non-negative integer.","$comment":"Untyped on purpose: C021 reports a bound that is not a finite non-negative integer."},"backoff":{"description":"How long the unit waits before each extra attempt: `initial`, then `factor` times longer each time, at most `max`, with `jitter`. Defaults: `initial: 1s`, `factor: 2`, `max: 5m`, `jitter: equal`. Policy: never invalidates committed work.","type":"object","additionalProperties":false,"properties":{"initial":{"$ref":"#/$defs/duration","description":"Wait before the first extra attempt, e.g. `1s` (default)."},"max":{"$ref":"#/$defs/duration","description":"Longest wait, e.g. `5m` (default); at least `initial`."},"factor":{"description":"Each wait is this many times the one before: a number from 1 to 100 (default 2; 1 is a constant wait).","type":"number"},"jitter":{"description":"Randomness against retry storms: `equal` (default: half the wait fixed, half random), `full` (anywhere from 0 to the wait) or `none`.","enum":["equal","full","none"]}}}}},"effects":{"description":"How many effects of a `dedup` or `irreversible` tool the unit makes at most (per loop iteration), for a tool whose `key` reads the call's `args`: `{ post_comment: { max: 3 } }`. Without it the unit makes at most one effect of each such tool (C039); the runtime refuses the next distinct key.","type":"object","additionalProperties":{"type":"object","additionalProperties":false,"required":["max"],"properties":{"max":{"description":"Most distinct keys of the tool per run of the unit (per loop iteration): a positive integer.","type":"integer","minimum":1}}}},"approval":{"$ref":"#/$defs/approval","description":"Durable gate before the unit runs."},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit, e.g. `45m`; without it, `task.timeout`, else the default of 30m."},"on_code_change":{"description":"When the code of the unit's handler, or of a tool adapter its work or recovery calls, changed since its result was committed: `ask` (the default: `resume` and `status` report it, `taskspec rerun` re-runs it) or `rerun` (re-run it at the next `resume`).","enum":["ask","rerun"]}}},"impactRule":{"description":"Also invalidate these units when a change of this kind happens.","type":"object","additionalProperties":false,"required":["on","invalidate"],"properties":{"on":{"description":"Change kind that fires the rule: `content`, `structure`, `policy` or `audience`.","type":"string","$comment":"Any string on purpose: C070 names an unknown change kind."},"at":{"description":"Only changes at this unit or input.","type":"string"},"invalidate":{"description":"Units to invalidate as well.","type":"array","items":{"type":"string"}}}}}};

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.goal === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "goal"},message:"must have required property '"+"goal"+"'",schema:schema32.required,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "id") || (key0 === "version")) || (key0 === "goal")) || (key0 === "timeout")) || (key0 === "forbid")) || (key0 === "outputs")) || (key0 === "done"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.id !== undefined){
let data0 = data.id;
if(typeof data0 === "string"){
if(!pattern4.test(data0)){
const err3 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9._-]*$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9._-]*$"+"\"",schema:"^[a-z0-9][a-z0-9._-]*$",parentSchema:schema32.properties.id,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.id.type,parentSchema:schema32.properties.id,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.version !== undefined){
let data1 = data.version;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err5 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema32.properties.version.type,parentSchema:schema32.properties.version,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 < 1 || isNaN(data1)){
const err6 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema32.properties.version,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
if(data.goal !== undefined){
let data2 = data.goal;
if(typeof data2 !== "string"){
const err7 = {instancePath:instancePath+"/goal",schemaPath:"#/properties/goal/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.goal.type,parentSchema:schema32.properties.goal,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.timeout !== undefined){
let data3 = data.timeout;
if(typeof data3 === "string"){
if(!pattern5.test(data3)){
const err8 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.forbid !== undefined){
let data4 = data.forbid;
if(Array.isArray(data4)){
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
if(typeof data5 !== "string"){
const err10 = {instancePath:instancePath+"/forbid/" + i0,schemaPath:"#/properties/forbid/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.forbid.items.type,parentSchema:schema32.properties.forbid.items,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/forbid",schemaPath:"#/properties/forbid/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.forbid.type,parentSchema:schema32.properties.forbid,data:data4};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.outputs !== undefined){
let data6 = data.outputs;
if(Array.isArray(data6)){
const len1 = data6.length;
for(let i1=0; i1<len1; i1++){
let data7 = data6[i1];
if(typeof data7 !== "string"){
const err12 = {instancePath:instancePath+"/outputs/" + i1,schemaPath:"#/properties/outputs/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.outputs.items.type,parentSchema:schema32.properties.outputs.items,data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.outputs.type,parentSchema:schema32.properties.outputs,data:data6};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.done !== undefined){
let data8 = data.done;
if(Array.isArray(data8)){
const len2 = data8.length;
for(let i2=0; i2<len2; i2++){
let data9 = data8[i2];
const _errs23 = errors;
let valid9 = true;
const _errs24 = errors;
if(typeof data9 !== "string"){
const err14 = {};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs24 === errors;
errors = _errs23;
if(vErrors !== null){
if(_errs23){
vErrors.length = _errs23;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs26 = errors;
if(typeof data9 !== "string"){
const err15 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/then/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.then.type,parentSchema:schema34.then,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs26 === errors;
valid9 = _valid0;
ifClause0 = "then";
}
else {
const _errs28 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.check === undefined){
const err16 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/else/required",keyword:"required",params:{missingProperty: "check"},message:"must have required property '"+"check"+"'",schema:schema34.else.required,parentSchema:schema34.else,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
for(const key1 in data9){
if(!(key1 === "check")){
const err17 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties",schema:false,parentSchema:schema34.else,data:data9};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data9.check !== undefined){
let data10 = data9.check;
if(typeof data10 !== "string"){
const err18 = {instancePath:instancePath+"/done/" + i2+"/check",schemaPath:"#/$defs/verifierUse/else/properties/check/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.else.properties.check.type,parentSchema:schema34.else.properties.check,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.else.type,parentSchema:schema34.else,data:data9};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
var _valid0 = _errs28 === errors;
valid9 = _valid0;
ifClause0 = "else";
}
if(!valid9){
const err20 = {instancePath:instancePath+"/done/" + i2,schemaPath:"#/$defs/verifierUse/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema34.if,parentSchema:schema34,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/done",schemaPath:"#/properties/done/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.done.type,parentSchema:schema32.properties.done,data:data8};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate38(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate38.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(((((key0 === "model_calls") || (key0 === "tool_calls")) || (key0 === "tokens")) || (key0 === "wall_clock")) || (key0 === "retries"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema37,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.model_calls !== undefined){
let data0 = data.model_calls;
if((typeof data0 == "number") && (isFinite(data0))){
if(data0 < 0 || isNaN(data0)){
const err1 = {instancePath:instancePath+"/model_calls",schemaPath:"#/properties/model_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.model_calls,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
else {
const err2 = {instancePath:instancePath+"/model_calls",schemaPath:"#/properties/model_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.model_calls.type,parentSchema:schema37.properties.model_calls,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.tool_calls !== undefined){
let data1 = data.tool_calls;
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 < 0 || isNaN(data1)){
const err3 = {instancePath:instancePath+"/tool_calls",schemaPath:"#/properties/tool_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.tool_calls,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/tool_calls",schemaPath:"#/properties/tool_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.tool_calls.type,parentSchema:schema37.properties.tool_calls,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.tokens !== undefined){
let data2 = data.tokens;
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 < 0 || isNaN(data2)){
const err5 = {instancePath:instancePath+"/tokens",schemaPath:"#/properties/tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.tokens,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/tokens",schemaPath:"#/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.tokens.type,parentSchema:schema37.properties.tokens,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.wall_clock !== undefined){
let data3 = data.wall_clock;
if(typeof data3 === "string"){
if(!pattern5.test(data3)){
const err7 = {instancePath:instancePath+"/wall_clock",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/wall_clock",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.retries !== undefined){
let data4 = data.retries;
if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){
const err9 = {instancePath:instancePath+"/retries",schemaPath:"#/properties/retries/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema37.properties.retries.type,parentSchema:schema37.properties.retries,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 < 0 || isNaN(data4)){
const err10 = {instancePath:instancePath+"/retries",schemaPath:"#/properties/retries/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.retries,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
}
else {
const err11 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.type,parentSchema:schema37,data};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
validate38.errors = vErrors;
return errors === 0;
}
validate38.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate40(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate40.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.class === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "class"},message:"must have required property '"+"class"+"'",schema:schema41.required,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema41.properties, key0))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.class !== undefined){
let data0 = data.class;
if(!(((((data0 === "read") || (data0 === "idempotent")) || (data0 === "dedup")) || (data0 === "compensable")) || (data0 === "irreversible"))){
const err2 = {instancePath:instancePath+"/class",schemaPath:"#/properties/class/enum",keyword:"enum",params:{allowedValues: schema41.properties.class.enum},message:"must be equal to one of the allowed values",schema:schema41.properties.class.enum,parentSchema:schema41.properties.class,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.key !== undefined){
let data1 = data.key;
if(typeof data1 !== "string"){
const err3 = {instancePath:instancePath+"/key",schemaPath:"#/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.key.type,parentSchema:schema41.properties.key,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.lookup !== undefined){
let data2 = data.lookup;
if(typeof data2 !== "string"){
const err4 = {instancePath:instancePath+"/lookup",schemaPath:"#/properties/lookup/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.lookup.type,parentSchema:schema41.properties.lookup,data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.args !== undefined){
let data3 = data.args;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key1 in data3){
const _errs9 = errors;
if(typeof key1 === "string"){
if(!pattern6.test(key1)){
const err5 = {instancePath:instancePath+"/args",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/args",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var valid1 = _errs9 === errors;
if(!valid1){
const err7 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema41.properties.args.propertyNames,parentSchema:schema41.properties.args,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
for(const key2 in data3){
let data4 = data3[key2];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
for(const key3 in data4){
if(!(((key3 === "secret") || (key3 === "safe")) || (key3 === "describe"))){
const err8 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/argument/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema43,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data4.secret !== undefined){
let data5 = data4.secret;
if(typeof data5 !== "boolean"){
const err9 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/secret",schemaPath:"#/$defs/argument/properties/secret/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema43.properties.secret.type,parentSchema:schema43.properties.secret,data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data4.safe !== undefined){
let data6 = data4.safe;
if(typeof data6 !== "boolean"){
const err10 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/safe",schemaPath:"#/$defs/argument/properties/safe/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema43.properties.safe.type,parentSchema:schema43.properties.safe,data:data6};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data4.describe !== undefined){
let data7 = data4.describe;
if(typeof data7 !== "string"){
const err11 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/describe",schemaPath:"#/$defs/argument/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema43.properties.describe.type,parentSchema:schema43.properties.describe,data:data7};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/args/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/argument/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema43.type,parentSchema:schema43,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.args.type,parentSchema:schema41.properties.args,data:data3};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.result !== undefined){
let data8 = data.result;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
for(const key4 in data8){
let data9 = data8[key4];
const _errs27 = errors;
let valid7 = true;
const _errs28 = errors;
if(typeof data9 !== "string"){
const err14 = {};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs28 === errors;
errors = _errs27;
if(vErrors !== null){
if(_errs27){
vErrors.length = _errs27;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs30 = errors;
if(!((((((data9 === "string") || (data9 === "number")) || (data9 === "boolean")) || (data9 === "list")) || (data9 === "object")) || (data9 === "any"))){
const err15 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/resultType/enum",keyword:"enum",params:{allowedValues: schema44.enum},message:"must be equal to one of the allowed values",schema:schema44.enum,parentSchema:schema44,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs30 === errors;
valid7 = _valid0;
ifClause0 = "then";
}
else {
const _errs32 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.type === undefined){
const err16 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/else/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema41.properties.result.additionalProperties.else.required,parentSchema:schema41.properties.result.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
for(const key5 in data9){
if(!((key5 === "type") || (key5 === "secret"))){
const err17 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema41.properties.result.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data9.type !== undefined){
let data10 = data9.type;
if(!((((((data10 === "string") || (data10 === "number")) || (data10 === "boolean")) || (data10 === "list")) || (data10 === "object")) || (data10 === "any"))){
const err18 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/type",schemaPath:"#/$defs/resultType/enum",keyword:"enum",params:{allowedValues: schema44.enum},message:"must be equal to one of the allowed values",schema:schema44.enum,parentSchema:schema44,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data9.secret !== undefined){
let data11 = data9.secret;
if(typeof data11 !== "boolean"){
const err19 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/secret",schemaPath:"#/properties/result/additionalProperties/else/properties/secret/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema41.properties.result.additionalProperties.else.properties.secret.type,parentSchema:schema41.properties.result.additionalProperties.else.properties.secret,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.result.additionalProperties.else.type,parentSchema:schema41.properties.result.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
var _valid0 = _errs32 === errors;
valid7 = _valid0;
ifClause0 = "else";
}
if(!valid7){
const err21 = {instancePath:instancePath+"/result/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/result/additionalProperties/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema41.properties.result.additionalProperties.if,parentSchema:schema41.properties.result.additionalProperties,data:data9};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/result",schemaPath:"#/properties/result/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.result.type,parentSchema:schema41.properties.result,data:data8};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.compensate !== undefined){
let data12 = data.compensate;
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
if(data12.tool === undefined){
const err23 = {instancePath:instancePath+"/compensate",schemaPath:"#/properties/compensate/required",keyword:"required",params:{missingProperty: "tool"},message:"must have required property '"+"tool"+"'",schema:schema41.properties.compensate.required,parentSchema:schema41.properties.compensate,data:data12};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
for(const key6 in data12){
if(!(((key6 === "tool") || (key6 === "with")) || (key6 === "compensated"))){
const err24 = {instancePath:instancePath+"/compensate",schemaPath:"#/properties/compensate/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema41.properties.compensate,data:data12};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data12.tool !== undefined){
let data13 = data12.tool;
if(typeof data13 !== "string"){
const err25 = {instancePath:instancePath+"/compensate/tool",schemaPath:"#/properties/compensate/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.compensate.properties.tool.type,parentSchema:schema41.properties.compensate.properties.tool,data:data13};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data12.with !== undefined){
let data14 = data12.with;
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
for(const key7 in data14){
let data15 = data14[key7];
if(typeof data15 !== "string"){
const err26 = {instancePath:instancePath+"/compensate/with/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/compensate/properties/with/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.compensate.properties.with.additionalProperties.type,parentSchema:schema41.properties.compensate.properties.with.additionalProperties,data:data15};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/compensate/with",schemaPath:"#/properties/compensate/properties/with/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.compensate.properties.with.type,parentSchema:schema41.properties.compensate.properties.with,data:data14};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data12.compensated !== undefined){
let data16 = data12.compensated;
if(typeof data16 !== "string"){
const err28 = {instancePath:instancePath+"/compensate/compensated",schemaPath:"#/properties/compensate/properties/compensated/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.compensate.properties.compensated.type,parentSchema:schema41.properties.compensate.properties.compensated,data:data16};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
else {
const err29 = {instancePath:instancePath+"/compensate",schemaPath:"#/properties/compensate/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.properties.compensate.type,parentSchema:schema41.properties.compensate,data:data12};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.approval !== undefined){
let data17 = data.approval;
if(!((data17 === "human") || (data17 === "rule"))){
const err30 = {instancePath:instancePath+"/approval",schemaPath:"#/$defs/approval/enum",keyword:"enum",params:{allowedValues: schema46.enum},message:"must be equal to one of the allowed values",schema:schema46.enum,parentSchema:schema46,data:data17};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.mcp !== undefined){
let data18 = data.mcp;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.server === undefined){
const err31 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/required",keyword:"required",params:{missingProperty: "server"},message:"must have required property '"+"server"+"'",schema:schema47.required,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(data18.tool === undefined){
const err32 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/required",keyword:"required",params:{missingProperty: "tool"},message:"must have required property '"+"tool"+"'",schema:schema47.required,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
for(const key8 in data18){
if(!(((key8 === "server") || (key8 === "tool")) || (key8 === "key_arg"))){
const err33 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key8},message:"must NOT have additional properties",schema:false,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data18.server !== undefined){
let data19 = data18.server;
if(typeof data19 !== "string"){
const err34 = {instancePath:instancePath+"/mcp/server",schemaPath:"#/$defs/mcpBinding/properties/server/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema47.properties.server.type,parentSchema:schema47.properties.server,data:data19};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data18.tool !== undefined){
let data20 = data18.tool;
if(typeof data20 !== "string"){
const err35 = {instancePath:instancePath+"/mcp/tool",schemaPath:"#/$defs/mcpBinding/properties/tool/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema47.properties.tool.type,parentSchema:schema47.properties.tool,data:data20};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data18.key_arg !== undefined){
let data21 = data18.key_arg;
if(typeof data21 !== "string"){
const err36 = {instancePath:instancePath+"/mcp/key_arg",schemaPath:"#/$defs/mcpBinding/properties/key_arg/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema47.properties.key_arg.type,parentSchema:schema47.properties.key_arg,data:data21};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
}
else {
const err37 = {instancePath:instancePath+"/mcp",schemaPath:"#/$defs/mcpBinding/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema47.type,parentSchema:schema47,data:data18};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data.cost !== undefined){
let data22 = data.cost;
if(data22 && typeof data22 == "object" && !Array.isArray(data22)){
for(const key9 in data22){
if(!(((key9 === "model_calls") || (key9 === "tool_calls")) || (key9 === "tokens"))){
const err38 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key9},message:"must NOT have additional properties",schema:false,parentSchema:schema48,data:data22};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data22.model_calls !== undefined){
let data23 = data22.model_calls;
if((typeof data23 == "number") && (isFinite(data23))){
if(data23 < 0 || isNaN(data23)){
const err39 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.model_calls,data:data23};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
else {
const err40 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.model_calls.type,parentSchema:schema48.properties.model_calls,data:data23};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
if(data22.tool_calls !== undefined){
let data24 = data22.tool_calls;
if((typeof data24 == "number") && (isFinite(data24))){
if(data24 < 0 || isNaN(data24)){
const err41 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tool_calls,data:data24};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
else {
const err42 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tool_calls.type,parentSchema:schema48.properties.tool_calls,data:data24};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data22.tokens !== undefined){
let data25 = data22.tokens;
if((typeof data25 == "number") && (isFinite(data25))){
if(data25 < 0 || isNaN(data25)){
const err43 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tokens,data:data25};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
else {
const err44 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tokens.type,parentSchema:schema48.properties.tokens,data:data25};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
}
else {
const err45 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema48.type,parentSchema:schema48,data:data22};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(data.describe !== undefined){
let data26 = data.describe;
if(typeof data26 !== "string"){
const err46 = {instancePath:instancePath+"/describe",schemaPath:"#/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema41.properties.describe.type,parentSchema:schema41.properties.describe,data:data26};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
}
else {
const err47 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema41.type,parentSchema:schema41,data};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
validate40.errors = vErrors;
return errors === 0;
}
validate40.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate42(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate42.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((((((key0 === "command") || (key0 === "args")) || (key0 === "env")) || (key0 === "cwd")) || (key0 === "url")) || (key0 === "headers")) || (key0 === "timeout")) || (key0 === "describe"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema50,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.command !== undefined){
let data0 = data.command;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/command",schemaPath:"#/properties/command/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.command.type,parentSchema:schema50.properties.command,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.args !== undefined){
let data1 = data.args;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/args/" + i0,schemaPath:"#/properties/args/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.args.items.type,parentSchema:schema50.properties.args.items,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath:instancePath+"/args",schemaPath:"#/properties/args/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema50.properties.args.type,parentSchema:schema50.properties.args,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.env !== undefined){
let data3 = data.env;
if(Array.isArray(data3)){
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 !== "string"){
const err4 = {instancePath:instancePath+"/env/" + i1,schemaPath:"#/properties/env/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.env.items.type,parentSchema:schema50.properties.env.items,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema50.properties.env.type,parentSchema:schema50.properties.env,data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.cwd !== undefined){
let data5 = data.cwd;
if(typeof data5 !== "string"){
const err6 = {instancePath:instancePath+"/cwd",schemaPath:"#/properties/cwd/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.cwd.type,parentSchema:schema50.properties.cwd,data:data5};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.url !== undefined){
let data6 = data.url;
if(typeof data6 !== "string"){
const err7 = {instancePath:instancePath+"/url",schemaPath:"#/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.url.type,parentSchema:schema50.properties.url,data:data6};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.headers !== undefined){
let data7 = data.headers;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key1 in data7){
let data8 = data7[key1];
const _errs20 = errors;
let valid6 = true;
const _errs21 = errors;
if(typeof data8 !== "string"){
const err8 = {};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs21 === errors;
errors = _errs20;
if(vErrors !== null){
if(_errs20){
vErrors.length = _errs20;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs23 = errors;
if(typeof data8 !== "string"){
const err9 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/then/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.headers.additionalProperties.then.type,parentSchema:schema50.properties.headers.additionalProperties.then,data:data8};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
var _valid0 = _errs23 === errors;
valid6 = _valid0;
ifClause0 = "then";
}
else {
const _errs25 = errors;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.env === undefined){
const err10 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/else/required",keyword:"required",params:{missingProperty: "env"},message:"must have required property '"+"env"+"'",schema:schema50.properties.headers.additionalProperties.else.required,parentSchema:schema50.properties.headers.additionalProperties.else,data:data8};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
for(const key2 in data8){
if(!((key2 === "env") || (key2 === "prefix"))){
const err11 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties",schema:false,parentSchema:schema50.properties.headers.additionalProperties.else,data:data8};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data8.env !== undefined){
let data9 = data8.env;
if(typeof data9 === "string"){
if(!pattern12.test(data9)){
const err12 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/env",schemaPath:"#/properties/headers/additionalProperties/else/properties/env/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z_][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z_][A-Za-z0-9_]*$"+"\"",schema:"^[A-Za-z_][A-Za-z0-9_]*$",parentSchema:schema50.properties.headers.additionalProperties.else.properties.env,data:data9};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/env",schemaPath:"#/properties/headers/additionalProperties/else/properties/env/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.headers.additionalProperties.else.properties.env.type,parentSchema:schema50.properties.headers.additionalProperties.else.properties.env,data:data9};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data8.prefix !== undefined){
let data10 = data8.prefix;
if(typeof data10 !== "string"){
const err14 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/prefix",schemaPath:"#/properties/headers/additionalProperties/else/properties/prefix/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.headers.additionalProperties.else.properties.prefix.type,parentSchema:schema50.properties.headers.additionalProperties.else.properties.prefix,data:data10};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema50.properties.headers.additionalProperties.else.type,parentSchema:schema50.properties.headers.additionalProperties.else,data:data8};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
var _valid0 = _errs25 === errors;
valid6 = _valid0;
ifClause0 = "else";
}
if(!valid6){
const err16 = {instancePath:instancePath+"/headers/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/headers/additionalProperties/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema50.properties.headers.additionalProperties.if,parentSchema:schema50.properties.headers.additionalProperties,data:data8};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/headers",schemaPath:"#/properties/headers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema50.properties.headers.type,parentSchema:schema50.properties.headers,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.timeout !== undefined){
let data11 = data.timeout;
if(typeof data11 === "string"){
if(!pattern5.test(data11)){
const err18 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.describe !== undefined){
let data12 = data.describe;
if(typeof data12 !== "string"){
const err20 = {instancePath:instancePath+"/describe",schemaPath:"#/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema50.properties.describe.type,parentSchema:schema50.properties.describe,data:data12};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema50.type,parentSchema:schema50,data};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
validate42.errors = vErrors;
return errors === 0;
}
validate42.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="accept-contract" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate35.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.contract === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "contract"},message:"must have required property '"+"contract"+"'",schema:schema76.required,parentSchema:schema76,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.task === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "task"},message:"must have required property '"+"task"+"'",schema:schema76.required,parentSchema:schema76,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.units === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "units"},message:"must have required property '"+"units"+"'",schema:schema76.required,parentSchema:schema76,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema76.properties, key0))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema76,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.contract !== undefined){
let data0 = data.contract;
if(1 !== data0){
const err4 = {instancePath:instancePath+"/contract",schemaPath:"#/properties/contract/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant",schema:1,parentSchema:schema76.properties.contract,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.task !== undefined){
if(!(validate36(data.task, {instancePath:instancePath+"/task",parentData:data,parentDataProperty:"task",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate36.errors : vErrors.concat(validate36.errors);
errors = vErrors.length;
}
}
if(data.inputs !== undefined){
let data2 = data.inputs;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
const _errs6 = errors;
if(typeof key1 === "string"){
if(!pattern6.test(key1)){
const err5 = {instancePath:instancePath+"/inputs",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/inputs",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var valid1 = _errs6 === errors;
if(!valid1){
const err7 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema76.properties.inputs.propertyNames,parentSchema:schema76.properties.inputs,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
for(const key2 in data2){
let data3 = data2[key2];
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.kind === undefined){
const err8 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/input/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema36.required,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
for(const key3 in data3){
if(!((((((key3 === "kind") || (key3 === "version")) || (key3 === "value")) || (key3 === "volatile")) || (key3 === "describe")) || (key3 === "secret"))){
const err9 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/input/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data3.kind !== undefined){
let data4 = data3.kind;
if(!((((data4 === "snapshot") || (data4 === "decision")) || (data4 === "external")) || (data4 === "artifact"))){
const err10 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/kind",schemaPath:"#/$defs/input/properties/kind/enum",keyword:"enum",params:{allowedValues: schema36.properties.kind.enum},message:"must be equal to one of the allowed values",schema:schema36.properties.kind.enum,parentSchema:schema36.properties.kind,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data3.version !== undefined){
let data5 = data3.version;
if((typeof data5 !== "string") && (!(((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5))) && (isFinite(data5))))){
const err11 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/version",schemaPath:"#/$defs/input/properties/version/type",keyword:"type",params:{type: schema36.properties.version.type},message:"must be string,integer",schema:schema36.properties.version.type,parentSchema:schema36.properties.version,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data3.volatile !== undefined){
let data6 = data3.volatile;
if(typeof data6 !== "boolean"){
const err12 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/volatile",schemaPath:"#/$defs/input/properties/volatile/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema36.properties.volatile.type,parentSchema:schema36.properties.volatile,data:data6};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data3.describe !== undefined){
let data7 = data3.describe;
if(typeof data7 !== "string"){
const err13 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/describe",schemaPath:"#/$defs/input/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.properties.describe.type,parentSchema:schema36.properties.describe,data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data3.secret !== undefined){
let data8 = data3.secret;
if(typeof data8 !== "boolean"){
const err14 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/secret",schemaPath:"#/$defs/input/properties/secret/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema36.properties.secret.type,parentSchema:schema36.properties.secret,data:data8};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/inputs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/input/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema36.type,parentSchema:schema36,data:data3};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema76.properties.inputs.type,parentSchema:schema76.properties.inputs,data:data2};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.budgets !== undefined){
if(!(validate38(data.budgets, {instancePath:instancePath+"/budgets",parentData:data,parentDataProperty:"budgets",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate38.errors : vErrors.concat(validate38.errors);
errors = vErrors.length;
}
}
if(data.queue !== undefined){
let data10 = data.queue;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.name === undefined){
const err17 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/queue/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema39.required,parentSchema:schema39,data:data10};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
for(const key4 in data10){
if(!((key4 === "name") || (key4 === "key"))){
const err18 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/queue/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema39,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data10.name !== undefined){
let data11 = data10.name;
if(typeof data11 === "string"){
if(!pattern8.test(data11)){
const err19 = {instancePath:instancePath+"/queue/name",schemaPath:"#/$defs/queue/properties/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"},message:"must match pattern \""+"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"+"\"",schema:"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",parentSchema:schema39.properties.name,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/queue/name",schemaPath:"#/$defs/queue/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.name.type,parentSchema:schema39.properties.name,data:data11};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data10.key !== undefined){
let data12 = data10.key;
if(typeof data12 !== "string"){
const err21 = {instancePath:instancePath+"/queue/key",schemaPath:"#/$defs/queue/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.properties.key.type,parentSchema:schema39.properties.key,data:data12};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/queue",schemaPath:"#/$defs/queue/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema39.type,parentSchema:schema39,data:data10};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.tools !== undefined){
let data13 = data.tools;
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
for(const key5 in data13){
const _errs34 = errors;
if(typeof key5 === "string"){
if(!pattern6.test(key5)){
const err23 = {instancePath:instancePath+"/tools",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key5,propertyName:key5};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/tools",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key5,propertyName:key5};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
var valid8 = _errs34 === errors;
if(!valid8){
const err25 = {instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/propertyNames",keyword:"propertyNames",params:{propertyName: key5},message:"property name must be valid",schema:schema76.properties.tools.propertyNames,parentSchema:schema76.properties.tools,data:data13};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
for(const key6 in data13){
if(!(validate40(data13[key6], {instancePath:instancePath+"/tools/" + key6.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data13,parentDataProperty:key6,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate40.errors : vErrors.concat(validate40.errors);
errors = vErrors.length;
}
}
}
else {
const err26 = {instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema76.properties.tools.type,parentSchema:schema76.properties.tools,data:data13};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.servers !== undefined){
let data15 = data.servers;
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
for(const key7 in data15){
const _errs41 = errors;
if(typeof key7 === "string"){
if(!pattern6.test(key7)){
const err27 = {instancePath:instancePath+"/servers",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key7,propertyName:key7};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
else {
const err28 = {instancePath:instancePath+"/servers",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key7,propertyName:key7};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
var valid11 = _errs41 === errors;
if(!valid11){
const err29 = {instancePath:instancePath+"/servers",schemaPath:"#/properties/servers/propertyNames",keyword:"propertyNames",params:{propertyName: key7},message:"property name must be valid",schema:schema76.properties.servers.propertyNames,parentSchema:schema76.properties.servers,data:data15};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
for(const key8 in data15){
if(!(validate42(data15[key8], {instancePath:instancePath+"/servers/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data15,parentDataProperty:key8,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate42.errors : vErrors.concat(validate42.errors);
errors = vErrors.length;
}
}
}
else {
const err30 = {instancePath:instancePath+"/servers",schemaPath:"#/properties/servers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema76.properties.servers.type,parentSchema:schema76.properties.servers,data:data15};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.verifiers !== undefined){
let data17 = data.verifiers;
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
for(const key9 in data17){
const _errs48 = errors;
if(typeof key9 === "string"){
if(!pattern6.test(key9)){
const err31 = {instancePath:instancePath+"/verifiers",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key9,propertyName:key9};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
else {
const err32 = {instancePath:instancePath+"/verifiers",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key9,propertyName:key9};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
var valid14 = _errs48 === errors;
if(!valid14){
const err33 = {instancePath:instancePath+"/verifiers",schemaPath:"#/properties/verifiers/propertyNames",keyword:"propertyNames",params:{propertyName: key9},message:"property name must be valid",schema:schema76.properties.verifiers.propertyNames,parentSchema:schema76.properties.verifiers,data:data17};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
for(const key10 in data17){
let data18 = data17[key10];
const _errs56 = errors;
let valid19 = true;
const _errs57 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
let missing0;
if((data18.kind === undefined) && (missing0 = "kind")){
const err34 = {};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
else {
if(data18.kind !== undefined){
if("rule" !== data18.kind){
const err35 = {};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
}
}
var _valid0 = _errs57 === errors;
errors = _errs56;
if(vErrors !== null){
if(_errs56){
vErrors.length = _errs56;
}
else {
vErrors = null;
}
}
if(_valid0){
const _errs59 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.check === undefined){
const err36 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/0/then/required",keyword:"required",params:{missingProperty: "check"},message:"must have required property '"+"check"+"'",schema:schema53.allOf[0].then.required,parentSchema:schema53.allOf[0].then,data:data18};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
var _valid0 = _errs59 === errors;
valid19 = _valid0;
}
if(!valid19){
const err37 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/0/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema",schema:schema53.allOf[0].if,parentSchema:schema53.allOf[0],data:data18};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
const _errs61 = errors;
let valid21 = true;
const _errs62 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
let missing1;
if((data18.kind === undefined) && (missing1 = "kind")){
const err38 = {};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
else {
if(data18.kind !== undefined){
if("schema" !== data18.kind){
const err39 = {};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
}
var _valid1 = _errs62 === errors;
errors = _errs61;
if(vErrors !== null){
if(_errs61){
vErrors.length = _errs61;
}
else {
vErrors = null;
}
}
if(_valid1){
const _errs64 = errors;
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.schema === undefined){
const err40 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/1/then/required",keyword:"required",params:{missingProperty: "schema"},message:"must have required property '"+"schema"+"'",schema:schema53.allOf[1].then.required,parentSchema:schema53.allOf[1].then,data:data18};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
var _valid1 = _errs64 === errors;
valid21 = _valid1;
}
if(!valid21){
const err41 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/allOf/1/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema",schema:schema53.allOf[1].if,parentSchema:schema53.allOf[1],data:data18};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.kind === undefined){
const err42 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema53.required,parentSchema:schema53,data:data18};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
for(const key11 in data18){
if(!((((key11 === "kind") || (key11 === "check")) || (key11 === "schema")) || (key11 === "describe"))){
const err43 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key11},message:"must NOT have additional properties",schema:false,parentSchema:schema53,data:data18};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
if(data18.kind !== undefined){
let data21 = data18.kind;
if(!((((data21 === "rule") || (data21 === "schema")) || (data21 === "model")) || (data21 === "human"))){
const err44 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/kind",schemaPath:"#/$defs/verifier/properties/kind/enum",keyword:"enum",params:{allowedValues: schema53.properties.kind.enum},message:"must be equal to one of the allowed values",schema:schema53.properties.kind.enum,parentSchema:schema53.properties.kind,data:data21};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data18.check !== undefined){
let data22 = data18.check;
if(typeof data22 !== "string"){
const err45 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/check",schemaPath:"#/$defs/verifier/properties/check/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema53.properties.check.type,parentSchema:schema53.properties.check,data:data22};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(data18.schema !== undefined){
let data23 = data18.schema;
if(typeof data23 !== "string"){
const err46 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/schema",schemaPath:"#/$defs/verifier/properties/schema/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema53.properties.schema.type,parentSchema:schema53.properties.schema,data:data23};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
if(data18.describe !== undefined){
let data24 = data18.describe;
if(typeof data24 !== "string"){
const err47 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1")+"/describe",schemaPath:"#/$defs/verifier/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema53.properties.describe.type,parentSchema:schema53.properties.describe,data:data24};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
}
else {
const err48 = {instancePath:instancePath+"/verifiers/" + key10.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/verifier/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema53.type,parentSchema:schema53,data:data18};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
}
else {
const err49 = {instancePath:instancePath+"/verifiers",schemaPath:"#/properties/verifiers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema76.properties.verifiers.type,parentSchema:schema76.properties.verifiers,data:data17};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
if(data.units !== undefined){
let data25 = data.units;
if(data25 && typeof data25 == "object" && !Array.isArray(data25)){
for(const key12 in data25){
const _errs75 = errors;
if(typeof key12 === "string"){
if(!pattern6.test(key12)){
const err50 = {instancePath:instancePath+"/units",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key12,propertyName:key12};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
else {
const err51 = {instancePath:instancePath+"/units",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key12,propertyName:key12};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
var valid24 = _errs75 === errors;
if(!valid24){
const err52 = {instancePath:instancePath+"/units",schemaPath:"#/properties/units/propertyNames",keyword:"propertyNames",params:{propertyName: key12},message:"property name must be valid",schema:schema76.properties.units.propertyNames,parentSchema:schema76.properties.units,data:data25};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
}
else {
const err53 = {instancePath:instancePath+"/units",schemaPath:"#/properties/units/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema76.properties.units.type,parentSchema:schema76.properties.units,data:data25};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
if(data.impact !== undefined){
let data26 = data.impact;
if(Array.isArray(data26)){
const len0 = data26.length;
for(let i0=0; i0<len0; i0++){
let data27 = data26[i0];
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
if(data27.on === undefined){
const err54 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/required",keyword:"required",params:{missingProperty: "on"},message:"must have required property '"+"on"+"'",schema:schema63.required,parentSchema:schema63,data:data27};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
if(data27.invalidate === undefined){
const err55 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/required",keyword:"required",params:{missingProperty: "invalidate"},message:"must have required property '"+"invalidate"+"'",schema:schema63.required,parentSchema:schema63,data:data27};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
for(const key13 in data27){
if(!(((key13 === "on") || (key13 === "at")) || (key13 === "invalidate"))){
const err56 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key13},message:"must NOT have additional properties",schema:false,parentSchema:schema63,data:data27};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
if(data27.on !== undefined){
let data28 = data27.on;
if(typeof data28 !== "string"){
const err57 = {instancePath:instancePath+"/impact/" + i0+"/on",schemaPath:"#/$defs/impactRule/properties/on/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.on.type,parentSchema:schema63.properties.on,data:data28};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(data27.at !== undefined){
let data29 = data27.at;
if(typeof data29 !== "string"){
const err58 = {instancePath:instancePath+"/impact/" + i0+"/at",schemaPath:"#/$defs/impactRule/properties/at/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.at.type,parentSchema:schema63.properties.at,data:data29};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
if(data27.invalidate !== undefined){
let data30 = data27.invalidate;
if(Array.isArray(data30)){
const len1 = data30.length;
for(let i1=0; i1<len1; i1++){
let data31 = data30[i1];
if(typeof data31 !== "string"){
const err59 = {instancePath:instancePath+"/impact/" + i0+"/invalidate/" + i1,schemaPath:"#/$defs/impactRule/properties/invalidate/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema63.properties.invalidate.items.type,parentSchema:schema63.properties.invalidate.items,data:data31};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
}
else {
const err60 = {instancePath:instancePath+"/impact/" + i0+"/invalidate",schemaPath:"#/$defs/impactRule/properties/invalidate/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema63.properties.invalidate.type,parentSchema:schema63.properties.invalidate,data:data30};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
}
else {
const err61 = {instancePath:instancePath+"/impact/" + i0,schemaPath:"#/$defs/impactRule/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema63.type,parentSchema:schema63,data:data27};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
}
else {
const err62 = {instancePath:instancePath+"/impact",schemaPath:"#/properties/impact/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema76.properties.impact.type,parentSchema:schema76.properties.impact,data:data26};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
}
else {
const err63 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema76.type,parentSchema:schema76,data};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
validate35.errors = vErrors;
return errors === 0;
}
validate35.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const acceptUnit = validate44;
const schema101 = {"description":"A unit of work.","type":"object","additionalProperties":false,"properties":{"phase":{"description":"Phase label used for grouping (e.g. `extract`, `verify`).","type":"string"},"describe":{"description":"What the unit does, for people.","type":"string"},"needs":{"description":"Upstream units or inputs, each with one edge kind or a list: `content`, `structure`, `policy`, `audience`.","$comment":"Edge kinds are any string on purpose: C070 names an unknown one and suggests the closest.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}},"uses":{"description":"Tools this unit may call.","type":"array","items":{"type":"string"}},"produces":{"description":"Artifacts this unit produces.","type":"array","items":{"type":"string"}},"verify":{"description":"Verifiers that must pass before the unit counts as done.","type":"array","items":{"$ref":"#/$defs/verifierUse"}},"cost":{"$ref":"#/$defs/cost","description":"The unit's own model cost per attempt."},"loop":{"description":"Bounded iteration inside the unit.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most iterations: a positive integer.","$comment":"Untyped on purpose: C021 reports a bound that is missing or not a positive integer, with a fix."},"until":{"description":"Stop early when this expression is true.","type":"string"}}},"retry":{"description":"Extra attempts after the first; overrides `budgets.retries`.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most extra attempts: a non-negative integer.","$comment":"Untyped on purpose: C021 reports a bound that is not a finite non-negative integer."},"backoff":{"description":"How long the unit waits before each extra attempt: `initial`, then `factor` times longer each time, at most `max`, with `jitter`. Defaults: `initial: 1s`, `factor: 2`, `max: 5m`, `jitter: equal`. Policy: never invalidates committed work.","type":"object","additionalProperties":false,"properties":{"initial":{"$ref":"#/$defs/duration","description":"Wait before the first extra attempt, e.g. `1s` (default)."},"max":{"$ref":"#/$defs/duration","description":"Longest wait, e.g. `5m` (default); at least `initial`."},"factor":{"description":"Each wait is this many times the one before: a number from 1 to 100 (default 2; 1 is a constant wait).","type":"number"},"jitter":{"description":"Randomness against retry storms: `equal` (default: half the wait fixed, half random), `full` (anywhere from 0 to the wait) or `none`.","enum":["equal","full","none"]}}}}},"effects":{"description":"How many effects of a `dedup` or `irreversible` tool the unit makes at most (per loop iteration), for a tool whose `key` reads the call's `args`: `{ post_comment: { max: 3 } }`. Without it the unit makes at most one effect of each such tool (C039); the runtime refuses the next distinct key.","type":"object","additionalProperties":{"type":"object","additionalProperties":false,"required":["max"],"properties":{"max":{"description":"Most distinct keys of the tool per run of the unit (per loop iteration): a positive integer.","type":"integer","minimum":1}}}},"approval":{"$ref":"#/$defs/approval","description":"Durable gate before the unit runs."},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit, e.g. `45m`; without it, `task.timeout`, else the default of 30m."},"on_code_change":{"description":"When the code of the unit's handler, or of a tool adapter its work or recovery calls, changed since its result was committed: `ask` (the default: `resume` and `status` report it, `taskspec rerun` re-runs it) or `rerun` (re-run it at the next `resume`).","enum":["ask","rerun"]}},"$id":"accept-unit","$defs":{"name":{"description":"A name: letters, digits, `_` and `-`, not starting with `-`.","type":"string","pattern":"^[A-Za-z0-9_][A-Za-z0-9_-]*$"},"duration":{"description":"A duration such as `45m`, `36h`, `90s`, `500ms` or `2d`.","type":"string","pattern":"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},"approval":{"description":"Who approves: `human` (a person) or `rule` (an automatic rule).","enum":["human","rule"]},"cost":{"description":"Cost per attempt (units) or per call (tools).","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Model calls.","type":"number","minimum":0},"tool_calls":{"description":"Tool calls.","type":"number","minimum":0},"tokens":{"description":"Model tokens.","type":"number","minimum":0}}},"verifierUse":{"description":"A declared verifier's name, or an inline check `{ check: \"...\" }`.","if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["check"],"properties":{"check":{"description":"An expression that must be true, e.g. `count(result.claims) >= 1`.","type":"string"}}}},"task":{"description":"Identity, goal and end-to-end verifiers of the task.","type":"object","additionalProperties":false,"required":["id","goal"],"properties":{"id":{"description":"Stable id: lowercase letters, digits, `.`, `_`, `-`.","type":"string","pattern":"^[a-z0-9][a-z0-9._-]*$"},"version":{"description":"Contract version; bump it when the goal changes. Defaults to 1.","type":"integer","minimum":1},"goal":{"description":"What the task must achieve, in one sentence.","type":"string"},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit of every unit without its own `timeout`, e.g. `10m`. Without either, a unit gets the runtime's default of 30m."},"forbid":{"description":"Things the task must never do.","type":"array","items":{"type":"string"}},"outputs":{"description":"Artifacts the task delivers; each is produced by exactly one unit.","type":"array","items":{"type":"string"}},"done":{"description":"End-to-end verifiers: the task is finished only when these pass on the final world.","type":"array","items":{"$ref":"#/$defs/verifierUse"}}}},"input":{"description":"A named input.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`snapshot` (fixed set), `decision` (a choice made by people), `external` (live world state) or `artifact` (a file from outside).","enum":["snapshot","decision","external","artifact"]},"version":{"description":"Version of a snapshot or artifact; changing it invalidates what depends on it.","type":["string","integer"]},"value":{"description":"Value of a decision; changing it invalidates what depends on it."},"volatile":{"description":"Evidence read from it expires and is re-read on resume (default true for `external`).","type":"boolean"},"describe":{"description":"What this input is, for people.","type":"string"},"secret":{"description":"The value is a secret: never stored (only its digest), never in events, masked as `***` in `status`, `handoff`, messages and the editor. Give it with an input reader, not a `value` in the contract (C037).","type":"boolean"}}},"queue":{"description":"The work queue the workers of a shared store serve this task's runs from (`taskspec submit`, `taskspec worker`). Absent: the queue `default`. A run's own `submit --queue` overrides `name`.","type":"object","additionalProperties":false,"required":["name"],"properties":{"name":{"description":"The queue's name: letters, digits, `.`, `_` and `-`, at most 64. Workers may serve only some queues (`--queue`) and limit each (`--queue-limit`).","type":"string","pattern":"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"},"key":{"description":"A template for the tenant the run belongs to, e.g. `${inputs.customer}`: runs of one queue take turns by key, so a tenant with many runs does not starve one with few. Sees `task`, `run` and `inputs`. Absent: all runs of the queue are one tenant.","type":"string"}}},"budgets":{"description":"Hard caps that survive crashes.","type":"object","additionalProperties":false,"properties":{"model_calls":{"description":"Cap on model calls for the whole run.","type":"number","minimum":0},"tool_calls":{"description":"Cap on tool calls for the whole run.","type":"number","minimum":0},"tokens":{"description":"Cap on model tokens for the whole run.","type":"number","minimum":0},"wall_clock":{"$ref":"#/$defs/duration","description":"Cap on elapsed time, e.g. `36h`."},"retries":{"description":"Default extra attempts per unit (units may override with `retry`).","type":"integer","minimum":0}}},"tool":{"description":"A tool and its recovery class.","type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"Recovery class: `read`, `idempotent`, `dedup`, `compensable` or `irreversible`.","enum":["read","idempotent","dedup","compensable","irreversible"]},"key":{"description":"Business key template, e.g. `task:${task.id}:${unit.id}`; required for `dedup`.","type":"string"},"lookup":{"description":"A `read` tool that finds the effect by key when its outcome is unknown.","type":"string"},"args":{"description":"What the ledger may keep of the tool's arguments. By default only their names (and digests of their values); `safe: true` keeps an argument's value in the effect's intent, `secret: true` keeps not even its digest and masks it as `***`.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"$ref":"#/$defs/argument"}},"result":{"description":"Fields of the tool's result and their types (`{ type, secret: true }` for a field the ledger must never store).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"$ref":"#/$defs/resultType"},"else":{"type":"object","additionalProperties":false,"required":["type"],"properties":{"type":{"$ref":"#/$defs/resultType"},"secret":{"description":"The field is a secret: the ledger never stores it, and the receipt the handler gets lacks it (the first call's as a reused effect's: the same receipt every time).","type":"boolean"}}}}},"compensate":{"description":"How to undo a committed call: the compensator tool and its arguments.","type":"object","additionalProperties":false,"required":["tool"],"properties":{"tool":{"description":"The compensator; an `idempotent` or `dedup` tool.","type":"string"},"with":{"description":"Arguments, as templates over `result`, e.g. `${result.booking_id}`.","type":"object","additionalProperties":{"type":"string"}},"compensated":{"description":"When the undo is verified: an expression over `result`, the record the tool's lookup answers after the compensator ran, true when the effect is undone, e.g. `result.status == \"voided\"`. A lookup answering null (nothing there) is always compensated. Default: `result.status == \"cancelled\"`. Never invalidates committed work.","type":"string"}}},"approval":{"$ref":"#/$defs/approval","description":"Who may approve a use of this tool; units that use it declare the gate."},"mcp":{"$ref":"#/$defs/mcpBinding"},"cost":{"$ref":"#/$defs/cost","description":"Cost per call."},"describe":{"description":"What the tool does, for people.","type":"string"}}},"server":{"description":"An MCP server: `command` (stdio) or `url` (Streamable HTTP), exactly one (C100).","type":"object","additionalProperties":false,"properties":{"command":{"description":"stdio: the program that starts the server, e.g. `node`.","type":"string"},"args":{"description":"stdio: its arguments. No secrets here (C102): pass them in `env`.","type":"array","items":{"type":"string"}},"env":{"description":"stdio: names of the worker's environment variables the server gets; besides them it gets only HOME, LOGNAME, PATH, SHELL, TERM and USER. Names only, never `NAME=value` (C102).","type":"array","items":{"type":"string"}},"cwd":{"description":"stdio: its working directory, relative to the contract's folder.","type":"string"},"url":{"description":"Streamable HTTP: the server's endpoint, e.g. `https://crm.example.com/mcp`. No credentials in it (C102).","type":"string"},"headers":{"description":"Streamable HTTP: headers sent with every request: a plain value (nothing secret, C102), or `{ env: NAME, prefix? }`, the value of the worker's environment variable NAME (after `prefix`, e.g. `\"Bearer \"`).","type":"object","additionalProperties":{"if":{"type":"string"},"then":{"type":"string"},"else":{"type":"object","additionalProperties":false,"required":["env"],"properties":{"env":{"description":"The environment variable that holds the value.","type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"prefix":{"description":"Text sent before the value, e.g. `Bearer `.","type":"string"}}}}},"timeout":{"description":"How long one request to this server may take (default 60s): past it the call is abandoned, the server is sent MCP's cancellation notification, and the effect is UNKNOWN, resolved by its lookup. A unit's own timeout cuts a call sooner.","$ref":"#/$defs/duration"},"describe":{"description":"What the server is, for people.","type":"string"}}},"mcpBinding":{"description":"The tool is a tool of an MCP server: the runtime calls it from the worker, through the ledger.","type":"object","additionalProperties":false,"required":["server","tool"],"properties":{"server":{"description":"A server declared under `servers` (C100).","type":"string"},"tool":{"description":"The tool's name on that server.","type":"string"},"key_arg":{"description":"The argument the rendered `key` is passed in (the server de-duplicates by it; a lookup finds the effect by it). A tool with a `key` needs it, or a bound `lookup` that has it (C101).","type":"string"}}},"resultType":{"description":"The type of a result field.","enum":["string","number","boolean","list","object","any"]},"argument":{"description":"What the ledger keeps of one argument.","type":"object","additionalProperties":false,"properties":{"secret":{"description":"The value is a secret: no digest of it is stored, it is masked as `***` in a held request, `status` and `handoff`, and a `key` must not read it (C037).","type":"boolean"},"safe":{"description":"The value is not sensitive: the effect's intent shows it (`send_email(to=ops@example.com, body)`), clipped and with credential-shaped text masked.","type":"boolean"},"describe":{"description":"What the argument is, for people.","type":"string"}}},"verifier":{"description":"A named check.","type":"object","additionalProperties":false,"required":["kind"],"properties":{"kind":{"description":"`rule` (an expression), `schema` (a JSON Schema file), `model` (soft, judged by a model) or `human`.","enum":["rule","schema","model","human"]},"check":{"description":"For `rule`: an expression that must be true.","type":"string"},"schema":{"description":"For `schema`: path of the JSON Schema the result must satisfy.","type":"string"},"describe":{"description":"What is checked, for people (and the prompt of a `model` verifier).","type":"string"}},"allOf":[{"if":{"properties":{"kind":{"const":"rule"}},"required":["kind"]},"then":{"required":["check"]}},{"if":{"properties":{"kind":{"const":"schema"}},"required":["kind"]},"then":{"required":["schema"]}}]},"unit":{"description":"A unit of work.","type":"object","additionalProperties":false,"properties":{"phase":{"description":"Phase label used for grouping (e.g. `extract`, `verify`).","type":"string"},"describe":{"description":"What the unit does, for people.","type":"string"},"needs":{"description":"Upstream units or inputs, each with one edge kind or a list: `content`, `structure`, `policy`, `audience`.","$comment":"Edge kinds are any string on purpose: C070 names an unknown one and suggests the closest.","type":"object","propertyNames":{"$ref":"#/$defs/name"},"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}},"uses":{"description":"Tools this unit may call.","type":"array","items":{"type":"string"}},"produces":{"description":"Artifacts this unit produces.","type":"array","items":{"type":"string"}},"verify":{"description":"Verifiers that must pass before the unit counts as done.","type":"array","items":{"$ref":"#/$defs/verifierUse"}},"cost":{"$ref":"#/$defs/cost","description":"The unit's own model cost per attempt."},"loop":{"description":"Bounded iteration inside the unit.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most iterations: a positive integer.","$comment":"Untyped on purpose: C021 reports a bound that is missing or not a positive integer, with a fix."},"until":{"description":"Stop early when this expression is true.","type":"string"}}},"retry":{"description":"Extra attempts after the first; overrides `budgets.retries`.","type":"object","additionalProperties":false,"properties":{"max":{"description":"Most extra attempts: a non-negative integer.","$comment":"Untyped on purpose: C021 reports a bound that is not a finite non-negative integer."},"backoff":{"description":"How long the unit waits before each extra attempt: `initial`, then `factor` times longer each time, at most `max`, with `jitter`. Defaults: `initial: 1s`, `factor: 2`, `max: 5m`, `jitter: equal`. Policy: never invalidates committed work.","type":"object","additionalProperties":false,"properties":{"initial":{"$ref":"#/$defs/duration","description":"Wait before the first extra attempt, e.g. `1s` (default)."},"max":{"$ref":"#/$defs/duration","description":"Longest wait, e.g. `5m` (default); at least `initial`."},"factor":{"description":"Each wait is this many times the one before: a number from 1 to 100 (default 2; 1 is a constant wait).","type":"number"},"jitter":{"description":"Randomness against retry storms: `equal` (default: half the wait fixed, half random), `full` (anywhere from 0 to the wait) or `none`.","enum":["equal","full","none"]}}}}},"effects":{"description":"How many effects of a `dedup` or `irreversible` tool the unit makes at most (per loop iteration), for a tool whose `key` reads the call's `args`: `{ post_comment: { max: 3 } }`. Without it the unit makes at most one effect of each such tool (C039); the runtime refuses the next distinct key.","type":"object","additionalProperties":{"type":"object","additionalProperties":false,"required":["max"],"properties":{"max":{"description":"Most distinct keys of the tool per run of the unit (per loop iteration): a positive integer.","type":"integer","minimum":1}}}},"approval":{"$ref":"#/$defs/approval","description":"Durable gate before the unit runs."},"timeout":{"$ref":"#/$defs/duration","description":"Per-attempt time limit, e.g. `45m`; without it, `task.timeout`, else the default of 30m."},"on_code_change":{"description":"When the code of the unit's handler, or of a tool adapter its work or recovery calls, changed since its result was committed: `ask` (the default: `resume` and `status` report it, `taskspec rerun` re-runs it) or `rerun` (re-run it at the next `resume`).","enum":["ask","rerun"]}}},"impactRule":{"description":"Also invalidate these units when a change of this kind happens.","type":"object","additionalProperties":false,"required":["on","invalidate"],"properties":{"on":{"description":"Change kind that fires the rule: `content`, `structure`, `policy` or `audience`.","type":"string","$comment":"Any string on purpose: C070 names an unknown change kind."},"at":{"description":"Only changes at this unit or input.","type":"string"},"invalidate":{"description":"Units to invalidate as well.","type":"array","items":{"type":"string"}}}}}};

function validate44(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="accept-unit" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate44.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!(func1.call(schema101.properties, key0))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema101,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.phase !== undefined){
let data0 = data.phase;
if(typeof data0 !== "string"){
const err1 = {instancePath:instancePath+"/phase",schemaPath:"#/properties/phase/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema101.properties.phase.type,parentSchema:schema101.properties.phase,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.describe !== undefined){
let data1 = data.describe;
if(typeof data1 !== "string"){
const err2 = {instancePath:instancePath+"/describe",schemaPath:"#/properties/describe/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema101.properties.describe.type,parentSchema:schema101.properties.describe,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.needs !== undefined){
let data2 = data.needs;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
const _errs9 = errors;
if(typeof key1 === "string"){
if(!pattern6.test(key1)){
const err3 = {instancePath:instancePath+"/needs",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_][A-Za-z0-9_-]*$"},message:"must match pattern \""+"^[A-Za-z0-9_][A-Za-z0-9_-]*$"+"\"",schema:"^[A-Za-z0-9_][A-Za-z0-9_-]*$",parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/needs",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var valid1 = _errs9 === errors;
if(!valid1){
const err5 = {instancePath:instancePath+"/needs",schemaPath:"#/properties/needs/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema101.properties.needs.propertyNames,parentSchema:schema101.properties.needs,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
for(const key2 in data2){
let data3 = data2[key2];
if((typeof data3 !== "string") && (!(Array.isArray(data3)))){
const err6 = {instancePath:instancePath+"/needs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/needs/additionalProperties/type",keyword:"type",params:{type: schema101.properties.needs.additionalProperties.type},message:"must be string,array",schema:schema101.properties.needs.additionalProperties.type,parentSchema:schema101.properties.needs.additionalProperties,data:data3};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(typeof data4 !== "string"){
const err7 = {instancePath:instancePath+"/needs/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i0,schemaPath:"#/properties/needs/additionalProperties/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema101.properties.needs.additionalProperties.items.type,parentSchema:schema101.properties.needs.additionalProperties.items,data:data4};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
}
}
else {
const err8 = {instancePath:instancePath+"/needs",schemaPath:"#/properties/needs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.properties.needs.type,parentSchema:schema101.properties.needs,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.uses !== undefined){
let data5 = data.uses;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
let data6 = data5[i1];
if(typeof data6 !== "string"){
const err9 = {instancePath:instancePath+"/uses/" + i1,schemaPath:"#/properties/uses/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema101.properties.uses.items.type,parentSchema:schema101.properties.uses.items,data:data6};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/uses",schemaPath:"#/properties/uses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema101.properties.uses.type,parentSchema:schema101.properties.uses,data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.produces !== undefined){
let data7 = data.produces;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
let data8 = data7[i2];
if(typeof data8 !== "string"){
const err11 = {instancePath:instancePath+"/produces/" + i2,schemaPath:"#/properties/produces/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema101.properties.produces.items.type,parentSchema:schema101.properties.produces.items,data:data8};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/produces",schemaPath:"#/properties/produces/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema101.properties.produces.type,parentSchema:schema101.properties.produces,data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.verify !== undefined){
let data9 = data.verify;
if(Array.isArray(data9)){
const len3 = data9.length;
for(let i3=0; i3<len3; i3++){
let data10 = data9[i3];
const _errs29 = errors;
let valid13 = true;
const _errs30 = errors;
if(typeof data10 !== "string"){
const err13 = {};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
var _valid0 = _errs30 === errors;
errors = _errs29;
if(vErrors !== null){
if(_errs29){
vErrors.length = _errs29;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs32 = errors;
if(typeof data10 !== "string"){
const err14 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/then/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.then.type,parentSchema:schema34.then,data:data10};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs32 === errors;
valid13 = _valid0;
ifClause0 = "then";
}
else {
const _errs34 = errors;
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
if(data10.check === undefined){
const err15 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/else/required",keyword:"required",params:{missingProperty: "check"},message:"must have required property '"+"check"+"'",schema:schema34.else.required,parentSchema:schema34.else,data:data10};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
for(const key3 in data10){
if(!(key3 === "check")){
const err16 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema34.else,data:data10};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data10.check !== undefined){
let data11 = data10.check;
if(typeof data11 !== "string"){
const err17 = {instancePath:instancePath+"/verify/" + i3+"/check",schemaPath:"#/$defs/verifierUse/else/properties/check/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.else.properties.check.type,parentSchema:schema34.else.properties.check,data:data11};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.else.type,parentSchema:schema34.else,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
var _valid0 = _errs34 === errors;
valid13 = _valid0;
ifClause0 = "else";
}
if(!valid13){
const err19 = {instancePath:instancePath+"/verify/" + i3,schemaPath:"#/$defs/verifierUse/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema34.if,parentSchema:schema34,data:data10};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/verify",schemaPath:"#/properties/verify/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema101.properties.verify.type,parentSchema:schema101.properties.verify,data:data9};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.cost !== undefined){
let data12 = data.cost;
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
for(const key4 in data12){
if(!(((key4 === "model_calls") || (key4 === "tool_calls")) || (key4 === "tokens"))){
const err21 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema48,data:data12};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data12.model_calls !== undefined){
let data13 = data12.model_calls;
if((typeof data13 == "number") && (isFinite(data13))){
if(data13 < 0 || isNaN(data13)){
const err22 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.model_calls,data:data13};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
else {
const err23 = {instancePath:instancePath+"/cost/model_calls",schemaPath:"#/$defs/cost/properties/model_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.model_calls.type,parentSchema:schema48.properties.model_calls,data:data13};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data12.tool_calls !== undefined){
let data14 = data12.tool_calls;
if((typeof data14 == "number") && (isFinite(data14))){
if(data14 < 0 || isNaN(data14)){
const err24 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tool_calls,data:data14};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/cost/tool_calls",schemaPath:"#/$defs/cost/properties/tool_calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tool_calls.type,parentSchema:schema48.properties.tool_calls,data:data14};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data12.tokens !== undefined){
let data15 = data12.tokens;
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 < 0 || isNaN(data15)){
const err26 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema48.properties.tokens,data:data15};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/cost/tokens",schemaPath:"#/$defs/cost/properties/tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema48.properties.tokens.type,parentSchema:schema48.properties.tokens,data:data15};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/cost",schemaPath:"#/$defs/cost/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema48.type,parentSchema:schema48,data:data12};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.loop !== undefined){
let data16 = data.loop;
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
for(const key5 in data16){
if(!((key5 === "max") || (key5 === "until"))){
const err29 = {instancePath:instancePath+"/loop",schemaPath:"#/properties/loop/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema101.properties.loop,data:data16};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data16.until !== undefined){
let data18 = data16.until;
if(typeof data18 !== "string"){
const err30 = {instancePath:instancePath+"/loop/until",schemaPath:"#/properties/loop/properties/until/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema101.properties.loop.properties.until.type,parentSchema:schema101.properties.loop.properties.until,data:data18};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
}
else {
const err31 = {instancePath:instancePath+"/loop",schemaPath:"#/properties/loop/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.properties.loop.type,parentSchema:schema101.properties.loop,data:data16};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data.retry !== undefined){
let data19 = data.retry;
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
for(const key6 in data19){
if(!((key6 === "max") || (key6 === "backoff"))){
const err32 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema101.properties.retry,data:data19};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data19.backoff !== undefined){
let data21 = data19.backoff;
if(data21 && typeof data21 == "object" && !Array.isArray(data21)){
for(const key7 in data21){
if(!((((key7 === "initial") || (key7 === "max")) || (key7 === "factor")) || (key7 === "jitter"))){
const err33 = {instancePath:instancePath+"/retry/backoff",schemaPath:"#/properties/retry/properties/backoff/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key7},message:"must NOT have additional properties",schema:false,parentSchema:schema101.properties.retry.properties.backoff,data:data21};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data21.initial !== undefined){
let data22 = data21.initial;
if(typeof data22 === "string"){
if(!pattern5.test(data22)){
const err34 = {instancePath:instancePath+"/retry/backoff/initial",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data22};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
else {
const err35 = {instancePath:instancePath+"/retry/backoff/initial",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data22};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data21.max !== undefined){
let data23 = data21.max;
if(typeof data23 === "string"){
if(!pattern5.test(data23)){
const err36 = {instancePath:instancePath+"/retry/backoff/max",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data23};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
else {
const err37 = {instancePath:instancePath+"/retry/backoff/max",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data23};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data21.factor !== undefined){
let data24 = data21.factor;
if(!((typeof data24 == "number") && (isFinite(data24)))){
const err38 = {instancePath:instancePath+"/retry/backoff/factor",schemaPath:"#/properties/retry/properties/backoff/properties/factor/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema101.properties.retry.properties.backoff.properties.factor.type,parentSchema:schema101.properties.retry.properties.backoff.properties.factor,data:data24};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data21.jitter !== undefined){
let data25 = data21.jitter;
if(!(((data25 === "equal") || (data25 === "full")) || (data25 === "none"))){
const err39 = {instancePath:instancePath+"/retry/backoff/jitter",schemaPath:"#/properties/retry/properties/backoff/properties/jitter/enum",keyword:"enum",params:{allowedValues: schema101.properties.retry.properties.backoff.properties.jitter.enum},message:"must be equal to one of the allowed values",schema:schema101.properties.retry.properties.backoff.properties.jitter.enum,parentSchema:schema101.properties.retry.properties.backoff.properties.jitter,data:data25};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
else {
const err40 = {instancePath:instancePath+"/retry/backoff",schemaPath:"#/properties/retry/properties/backoff/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.properties.retry.properties.backoff.type,parentSchema:schema101.properties.retry.properties.backoff,data:data21};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
else {
const err41 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.properties.retry.type,parentSchema:schema101.properties.retry,data:data19};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(data.effects !== undefined){
let data26 = data.effects;
if(data26 && typeof data26 == "object" && !Array.isArray(data26)){
for(const key8 in data26){
let data27 = data26[key8];
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
if(data27.max === undefined){
const err42 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/effects/additionalProperties/required",keyword:"required",params:{missingProperty: "max"},message:"must have required property '"+"max"+"'",schema:schema101.properties.effects.additionalProperties.required,parentSchema:schema101.properties.effects.additionalProperties,data:data27};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
for(const key9 in data27){
if(!(key9 === "max")){
const err43 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/effects/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key9},message:"must NOT have additional properties",schema:false,parentSchema:schema101.properties.effects.additionalProperties,data:data27};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
if(data27.max !== undefined){
let data28 = data27.max;
if(!(((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28))) && (isFinite(data28)))){
const err44 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1")+"/max",schemaPath:"#/properties/effects/additionalProperties/properties/max/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema101.properties.effects.additionalProperties.properties.max.type,parentSchema:schema101.properties.effects.additionalProperties.properties.max,data:data28};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
if((typeof data28 == "number") && (isFinite(data28))){
if(data28 < 1 || isNaN(data28)){
const err45 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1")+"/max",schemaPath:"#/properties/effects/additionalProperties/properties/max/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema101.properties.effects.additionalProperties.properties.max,data:data28};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
}
}
else {
const err46 = {instancePath:instancePath+"/effects/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/effects/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.properties.effects.additionalProperties.type,parentSchema:schema101.properties.effects.additionalProperties,data:data27};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
}
else {
const err47 = {instancePath:instancePath+"/effects",schemaPath:"#/properties/effects/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.properties.effects.type,parentSchema:schema101.properties.effects,data:data26};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data.approval !== undefined){
let data29 = data.approval;
if(!((data29 === "human") || (data29 === "rule"))){
const err48 = {instancePath:instancePath+"/approval",schemaPath:"#/$defs/approval/enum",keyword:"enum",params:{allowedValues: schema46.enum},message:"must be equal to one of the allowed values",schema:schema46.enum,parentSchema:schema46,data:data29};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
if(data.timeout !== undefined){
let data30 = data.timeout;
if(typeof data30 === "string"){
if(!pattern5.test(data30)){
const err49 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/pattern",keyword:"pattern",params:{pattern: "^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"},message:"must match pattern \""+"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$"+"\"",schema:"^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)$",parentSchema:schema33,data:data30};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
else {
const err50 = {instancePath:instancePath+"/timeout",schemaPath:"#/$defs/duration/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:data30};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
if(data.on_code_change !== undefined){
let data31 = data.on_code_change;
if(!((data31 === "ask") || (data31 === "rerun"))){
const err51 = {instancePath:instancePath+"/on_code_change",schemaPath:"#/properties/on_code_change/enum",keyword:"enum",params:{allowedValues: schema101.properties.on_code_change.enum},message:"must be equal to one of the allowed values",schema:schema101.properties.on_code_change.enum,parentSchema:schema101.properties.on_code_change,data:data31};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
}
else {
const err52 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema101.type,parentSchema:schema101,data};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
validate44.errors = vErrors;
return errors === 0;
}
validate44.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

