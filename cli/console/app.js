// The console page: plain DOM, no framework and no build step. Every text
// from the store goes in through textContent (h() below), never as HTML;
// the one markup inserted is Graphviz's SVG of the plan, parsed as SVG.
"use strict";
(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const main = document.getElementById("main");
  const crumbs = document.getElementById("crumbs");
  const live = document.getElementById("live");
  let cleanup = [];

  const withToken = (path) => `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
  async function api(path, body) {
    const res = await fetch(path, {
      method: body ? "POST" : "GET",
      headers: { "x-taskspec-token": token, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const type = res.headers.get("content-type") || "";
    const data = type.includes("json") ? await res.json() : await res.text();
    if (!res.ok) throw Object.assign(new Error(data.error || String(data)), { status: res.status, data });
    return data;
  }

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  const state = (s) => h("span", { class: `state s-${s}`, "data-state": s }, s);
  const fig = (k, v, name) =>
    h(
      "div",
      { class: "fig", "data-fig": name },
      h("div", { class: "k" }, k),
      h("div", { class: "v", title: typeof v === "string" ? v : undefined }, v),
    );
  const ago = (iso) => {
    if (!iso) return "";
    const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
    return s < 90
      ? `${s}s ago`
      : s < 5400
        ? `${Math.round(s / 60)} min ago`
        : s < 172800
          ? `${Math.round(s / 3600)} h ago`
          : iso.slice(0, 10);
  };
  const runLink = (run, rest = "") => `#/run/${encodeURIComponent(run)}${rest}`;
  function setCrumbs(...links) {
    crumbs.replaceChildren(...links.map(([text, href]) => h("a", { href }, text)));
  }
  function showError(err) {
    main.replaceChildren(h("p", { class: "error", role: "alert" }, err.message || String(err)));
  }
  function stream(path, handlers) {
    const es = new EventSource(withToken(path));
    es.onopen = () => {
      live.textContent = "● live";
      live.classList.add("on");
    };
    es.onerror = () => {
      live.textContent = "○ reconnecting";
      live.classList.remove("on");
    };
    for (const [name, fn] of Object.entries(handlers)) es.addEventListener(name, fn);
    cleanup.push(() => es.close());
    return es;
  }
  /** At most one call of fn per ms; a call during the wait runs once after it. */
  function throttle(fn, ms) {
    let timer = null,
      again = false;
    return () => {
      if (timer) {
        again = true;
        return;
      }
      fn();
      timer = setTimeout(function done() {
        timer = null;
        if (again) {
          again = false;
          fn();
          timer = setTimeout(done, ms);
        }
      }, ms);
      cleanup.push(() => clearTimeout(timer));
    };
  }

  // ---- runs list -------------------------------------------------------------------------------
  const PAGE = 50;
  async function runsPage(params) {
    setCrumbs();
    const q = { state: params.get("state") || "", search: params.get("search") || "", offset: Number(params.get("offset") || 0) };
    const filter = h(
      "select",
      { "aria-label": "state", name: "state" },
      ["", "running", "resumable", "blocked", "failed", "done", "cancelled"].map((s) =>
        h("option", { value: s, selected: s === q.state }, s || "every state"),
      ),
    );
    const search = h("input", { type: "search", placeholder: "search run id", "aria-label": "search run id", value: q.search });
    const go = (over) => {
      const p = new URLSearchParams({ ...q, ...over });
      for (const [k, v] of [...p]) if (!v || v === "0") p.delete(k);
      location.hash = `#/?${p}`;
    };
    filter.onchange = () => go({ state: filter.value, offset: 0 });
    search.onkeydown = (e) => {
      if (e.key === "Enter") go({ search: search.value, offset: 0 });
    };
    const body = h("tbody");
    const info = h("span", { class: "muted" });
    const prev = h("button", { onclick: () => go({ offset: Math.max(0, q.offset - PAGE) }) }, "← newer");
    const next = h("button", { onclick: () => go({ offset: q.offset + PAGE }) }, "older →");
    main.replaceChildren(
      h("h1", {}, "Runs"),
      h(
        "div",
        { class: "toolbar" },
        filter,
        search,
        h("button", { onclick: () => go({ search: search.value, offset: 0 }) }, "Search"),
        prev,
        next,
        info,
      ),
      h(
        "table",
        { id: "runs" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["run", "task", "state", "plan", "checkpoint", "units done", "failed", "last progress", "blocked / waiting for"].map((t) =>
              h("th", {}, t),
            ),
          ),
        ),
        body,
      ),
    );
    const load = async () => {
      const p = new URLSearchParams({ offset: String(q.offset), limit: String(PAGE) });
      if (q.state) p.set("state", q.state);
      if (q.search) p.set("search", q.search);
      const w = await api(`/api/runs?${p}`);
      body.replaceChildren(
        ...w.runs.map((r) =>
          h(
            "tr",
            { "data-run": r.run },
            h("td", {}, h("a", { href: runLink(r.run) }, r.run)),
            h("td", {}, r.task),
            h("td", {}, state(r.status)),
            h("td", { class: "mono" }, r.planVersion.slice(0, 12)),
            h("td", {}, `v${r.checkpoint}`),
            h("td", {}, `${r.units.succeeded}/${r.units.total}`),
            h("td", {}, r.units.failed || ""),
            h("td", { title: r.lastProgressAt }, ago(r.lastProgressAt)),
            h(
              "td",
              {},
              [
                ...r.awaitingApproval.map((u) => `approval at ${u}`),
                ...r.blocked.filter((b) => !b.startsWith("approval")).slice(0, 2),
              ].join("; "),
            ),
          ),
        ),
      );
      if (w.runs.length === 0) body.append(h("tr", {}, h("td", { colspan: 9, class: "muted" }, "no run matches")));
      info.textContent = `${w.offset + 1}–${w.offset + w.runs.length}${w.total !== undefined ? ` of ${w.total}` : ""}`;
      prev.disabled = q.offset === 0;
      next.disabled = !w.more;
    };
    await load();
    const reload = throttle(() => void load().catch(showError), 1000);
    stream("/api/stream/runs", { "runs-changed": reload });
  }

  // ---- run panel -------------------------------------------------------------------------------
  function budgetBars(b) {
    const names = [...new Set([...Object.keys(b.caps), ...Object.keys(b.used)])];
    return h(
      "table",
      { class: "budget" },
      names.map((n) => {
        const used = b.used[n] || 0,
          cap = b.caps[n];
        const pct = cap ? Math.min(100, (100 * used) / cap) : 0;
        return h(
          "tr",
          { "data-budget": n },
          h("td", {}, n),
          h(
            "td",
            { style: "width:45%" },
            h(
              "div",
              {
                class: `bar${pct >= 100 ? " full" : pct >= 80 ? " high" : ""}`,
                role: "meter",
                "aria-valuenow": used,
                "aria-valuemax": cap ?? "",
              },
              h("span", { style: `width:${pct}%` }),
            ),
          ),
          h("td", { class: "mono" }, `${used}${cap !== undefined ? ` / ${cap}` : " (no cap)"}`),
        );
      }),
    );
  }

  function figures(s) {
    const leases = s.leases.filter((l) => l.live);
    return h(
      "div",
      { class: "grid", id: "figures" },
      fig("state", state(s.status), "status"),
      fig("plan", `${s.planVersion}`, "planVersion"),
      fig("inputs", s.inputVersion, "inputVersion"),
      fig("checkpoint", `v${s.checkpoint.version} (${s.checkpoint.kind})`, "checkpoint"),
      fig("current units", `${s.counts.current} of ${s.counts.units}`, "current"),
      fig("superseded (kept)", s.counts.superseded, "superseded"),
      fig("orphan files", s.artifacts.orphan, "orphan"),
      fig("ready · running · blocked", `${s.counts.ready} · ${s.counts.running} · ${s.counts.blocked}`, "rrb"),
      fig("failed", s.counts.failed, "failed"),
      fig("baseline commits", s.baselineCommits, "baselineCommits"),
      fig("lease holders", leases.length ? leases.map((l) => `${l.unit}: ${l.owner}`).join(", ") : "none", "leases"),
      fig("last progress", `${ago(s.lastProgressAt)} (${s.lastProgressAt})`, "lastProgressAt"),
      fig("pending approvals", s.approvals.pending.map((p) => p.unit).join(", ") || "none", "approvals"),
      fig("unknown effects", s.unknownEffects.map((e) => `${e.id} (${e.intent})`).join(", ") || "none", "unknownEffects"),
      fig("checkpoint chain", s.integrity && s.integrity.verified ? "verified" : "NOT VERIFIED", "integrity"),
    );
  }

  async function graphOf(run, units) {
    const box = h(
      "div",
      { class: "graph", id: "graph" },
      h("span", { class: "hint" }, "drag to pan · wheel to zoom · double-click to fit"),
    );
    let svgText;
    try {
      svgText = await api(`/api/runs/${encodeURIComponent(run)}/graph.svg`);
    } catch (err) {
      box.replaceChildren(h("p", { class: "muted" }, err.message));
      return { box, paint() {} };
    }
    const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
    box.prepend(document.importNode(svg, true));
    const el = box.querySelector("svg");
    el.removeAttribute("width");
    el.removeAttribute("height");
    const full = el.viewBox.baseVal;
    const home = [full.x, full.y, full.width, full.height];
    let vb = [...home];
    // a big graph opens at a readable scale around its top, not shrunk to fit
    const fitScale = Math.max(home[2] / 900, home[3] / 480);
    if (fitScale > 2.5) vb = [home[0], home[1], 900 * 1.2, 480 * 1.2];
    const apply = () => el.setAttribute("viewBox", vb.join(" "));
    apply();
    box.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const r = el.getBoundingClientRect();
        const k = e.deltaY > 0 ? 1.15 : 1 / 1.15;
        const px = vb[0] + ((e.clientX - r.left) / r.width) * vb[2],
          py = vb[1] + ((e.clientY - r.top) / r.height) * vb[3];
        vb = [px - (px - vb[0]) * k, py - (py - vb[1]) * k, vb[2] * k, vb[3] * k];
        apply();
      },
      { passive: false },
    );
    let drag = null;
    box.addEventListener("pointerdown", (e) => {
      drag = [e.clientX, e.clientY, vb[0], vb[1]];
      box.setPointerCapture(e.pointerId);
    });
    box.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const r = el.getBoundingClientRect();
      vb[0] = drag[2] - ((e.clientX - drag[0]) / r.width) * vb[2];
      vb[1] = drag[3] - ((e.clientY - drag[1]) / r.height) * vb[3];
      apply();
    });
    box.addEventListener("pointerup", () => {
      drag = null;
    });
    box.addEventListener("dblclick", () => {
      vb = [...home];
      apply();
    });
    const nodes = new Map([...el.querySelectorAll("g.node")].map((g) => [g.querySelector("title")?.textContent, g]));
    const paint = (list) => {
      for (const u of list) {
        const g = nodes.get(u.unit);
        if (!g) continue;
        g.setAttribute("class", `node u-${u.state}`);
        g.setAttribute("data-state", u.state);
        let t = g.querySelector("title");
        if (t) t.textContent = u.unit;
        g.style.cursor = "pointer";
        g.onclick = () => {
          location.hash = runLink(run, `/unit/${encodeURIComponent(u.unit)}`);
        };
      }
    };
    paint(units);
    return { box, paint };
  }

  function eventLine(e) {
    const data = Object.entries(e.data || {})
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    return h(
      "div",
      { class: `t-${e.type}`, "data-seq": e.seq, title: data },
      `#${e.seq} ${e.at.slice(11, 19)} ${e.type}${e.unit ? ` ${e.unit}` : ""}${e.attempt !== undefined ? ` a${e.attempt}` : ""} ${data}`,
    );
  }
  const KEEP = 500;
  const EVENTS_PAGE = 200;
  // The log is read a window at a time from the store (newest first, older on request), never whole:
  // a long run has a hundred thousand events.
  async function timeline(run, onEvent) {
    const box = h("div", { class: "timeline", id: "timeline", "aria-live": "polite" });
    const path = `/api/runs/${encodeURIComponent(run)}/events`;
    const first = await api(`${path}?tail=${EVENTS_PAGE}`);
    let last = 0;
    let total = first.total - first.events.length;
    let oldest = first.events.length > 0 ? first.events[0].seq : 0;
    let keep = KEEP;
    const note = h("p", { class: "muted" });
    const count = () => {
      note.textContent = `newest first; ${total} events in the log, ${box.childElementCount} shown`;
    };
    const older = h("button", { type: "button", class: "older", id: "older-events" }, `older events (${EVENTS_PAGE} more)`);
    const showOlder = () => {
      older.hidden = box.childElementCount >= total;
    };
    older.addEventListener("click", async () => {
      older.disabled = true;
      try {
        const page = await api(`${path}?tail=${EVENTS_PAGE}&before=${oldest}`);
        for (const e of [...page.events].reverse()) box.append(eventLine(e));
        if (page.events.length > 0) oldest = page.events[0].seq;
        keep = Math.max(keep, box.childElementCount);
        total = page.total;
        count();
        showOlder();
      } catch (err) {
        note.textContent = err.message;
      } finally {
        older.disabled = false;
      }
    });
    const add = (e) => {
      box.prepend(eventLine(e));
      last = Math.max(last, e.seq);
      total += 1;
      while (box.childElementCount > keep) box.lastElementChild.remove();
      count();
    };
    first.events.forEach(add);
    showOlder();
    stream(`/api/runs/${encodeURIComponent(run)}/stream?after=${last}`, {
      "run-event": (m) => {
        const e = JSON.parse(m.data);
        if (e.seq > last) {
          add(e);
          onEvent(e);
        }
      },
    });
    return h("div", {}, note, box, older);
  }

  async function runPage(run) {
    setCrumbs(["runs", "#/"], [run, runLink(run)], ["takeover", runLink(run, "/takeover")]);
    const s = await api(`/api/runs/${encodeURIComponent(run)}/status`);
    const figs = h("div", {}, figures(s));
    const next = h("div", { class: "next", id: "next" }, h("b", {}, "next safe action: "), s.nextSafeAction);
    const bars = h("div", { id: "budget" }, budgetBars(s.budget));
    const graph = await graphOf(run, s.units);
    const refresh = throttle(async () => {
      const f = await api(`/api/runs/${encodeURIComponent(run)}/status`).catch(() => null);
      if (!f) return;
      figs.replaceChildren(figures(f));
      next.replaceChildren(h("b", {}, "next safe action: "), f.nextSafeAction);
      bars.replaceChildren(budgetBars(f.budget));
      graph.paint(f.units);
    }, 1000);
    const tl = await timeline(run, refresh);
    main.replaceChildren(
      h("h1", {}, `Run ${run} `, h("span", { class: "muted" }, s.task || "")),
      next,
      h("p", {}, h("a", { href: runLink(run, "/takeover") }, "Take over: decisions →"), ...downloads(run)),
      figs,
      h("h2", {}, "Budget"),
      bars,
      h("div", { class: "cols" }, h("div", {}, h("h2", {}, "Units"), graph.box), h("div", {}, h("h2", {}, "Timeline"), tl)),
      h("h2", {}, "Superseded"),
      s.supersededUnits.length
        ? h(
            "ul",
            {},
            s.supersededUnits.map((u) =>
              h("li", {}, h("a", { href: runLink(run, `/unit/${encodeURIComponent(u.unit)}`) }, u.unit), ` a${u.attempt}: ${u.reason}`),
            ),
          )
        : h("p", { class: "muted" }, "none"),
      h("h2", {}, "Orphan files"),
      s.artifacts.orphans.length
        ? h(
            "ul",
            { class: "mono" },
            s.artifacts.orphans.map((o) => h("li", {}, o)),
          )
        : h("p", { class: "muted" }, "none"),
    );
  }

  // ---- unit page -------------------------------------------------------------------------------
  async function unitPage(run, unit) {
    setCrumbs(["runs", "#/"], [run, runLink(run)], [unit, runLink(run, `/unit/${encodeURIComponent(unit)}`)]);
    const v = await api(`/api/runs/${encodeURIComponent(run)}/units/${encodeURIComponent(unit)}`);
    main.replaceChildren(
      h("h1", {}, `Unit ${unit} of ${run} `, state(v.state)),
      h(
        "p",
        {},
        `${v.attempts} attempt(s), ${v.failures} failed`,
        v.lastError ? ` · last error a${v.lastError.attempt} ${v.lastError.class}: ${v.lastError.message}` : "",
      ),
      h(
        "div",
        { class: "cols" },
        h("div", {}, h("h2", {}, "Contract definition"), h("pre", { id: "definition" }, JSON.stringify(v.definition, null, 2))),
        h("div", {}, h("h2", {}, "Current result"), h("pre", { id: "result" }, v.current ? JSON.stringify(v.current, null, 2) : "none")),
      ),
      h("h2", {}, "Artifacts"),
      h(
        "table",
        { id: "artifacts" },
        h(
          "tr",
          {},
          ["attempt", "path", "sha256", "size", "type", "status", "verifiers"].map((t) => h("th", {}, t)),
        ),
        v.artifacts.map((a) =>
          h(
            "tr",
            { class: a.current ? "current" : "" },
            h("td", {}, `a${a.attempt}`),
            h("td", { class: "mono" }, a.path),
            h("td", { class: "mono", title: a.sha256 }, a.sha256.slice(0, 16)),
            h("td", {}, a.size),
            h("td", {}, a.mediaType),
            h("td", {}, `${a.status}${a.current ? " (current)" : ""}`),
            h(
              "td",
              {},
              (a.verifierResults || []).map((r) => `${r.name || r.verifier || ""}: ${r.passed ? "passed" : "failed"}`).join(", "),
            ),
          ),
        ),
      ),
      h("h2", {}, "Effects"),
      h(
        "table",
        { id: "effects" },
        h(
          "tr",
          {},
          ["id", "tool", "state", "key", "remote id", "receipt"].map((t) => h("th", {}, t)),
        ),
        (v.effects || []).map((e) =>
          h(
            "tr",
            {},
            h("td", { class: "mono" }, e.id),
            h("td", {}, e.tool),
            h("td", {}, e.state),
            h("td", { class: "mono" }, e.key || ""),
            h("td", {}, e.remoteId || ""),
            h("td", { class: "mono" }, e.receipt ? JSON.stringify(e.receipt).slice(0, 200) : ""),
          ),
        ),
      ),
      h("h2", {}, "Earlier records"),
      h("pre", { id: "history" }, JSON.stringify(v.history, null, 2)),
      v.iterations.length ? h("div", {}, h("h2", {}, "Loop iterations"), h("pre", {}, JSON.stringify(v.iterations, null, 2))) : "",
    );
  }

  // ---- takeover page ---------------------------------------------------------------------------
  function previewBox(made, onConfirm, problem) {
    const p = made.preview;
    return h(
      "div",
      { class: "preview", role: "region", "aria-label": "preview" },
      problem ? h("p", { class: "error" }, problem) : "",
      h("b", {}, `preview: ${p.action}`),
      h("div", {}, `reuses ${p.reuse.length} unit(s)`, p.reuse.length ? `: ${p.reuse.join(" ")}` : ""),
      h("div", {}, `invalidates ${p.invalidate.length} unit(s)`),
      h(
        "ul",
        {},
        p.invalidate.map((i) => h("li", {}, `${i.unit}: ${i.why}`)),
      ),
      (p.undo || []).map((u) => h("div", {}, `undoes ${u.effect}: ${u.intent} with ${u.compensator}`)),
      (p.cannotUndo || []).map((c) => h("div", {}, `cannot undo ${c.effect}: ${c.intent}: ${c.why}`)),
      p.prepared
        ? h(
            "div",
            { class: "prepared" },
            h("div", {}, `will send: ${p.prepared.tool} (effect ${p.prepared.effect})`),
            h("pre", { class: "mono" }, JSON.stringify(p.prepared.args, null, 2)),
            h("div", { class: "mono" }, `key ${p.prepared.key || "none"} · request sha256 ${p.prepared.requestHash}`),
            h("div", {}, `bound to plan ${p.prepared.planVersion}`),
          )
        : "",
      h(
        "ul",
        {},
        p.notes.map((n) => h("li", {}, n)),
      ),
      h("div", { class: "muted mono" }, `basis ${made.basis}`),
      h("button", { class: "primary", type: "button", onclick: onConfirm }, "Confirm"),
    );
  }

  function decisionForm(run, action, title, fields, after) {
    const inputs = fields.map(([name, label, kind, options]) =>
      kind === "select"
        ? h(
            "select",
            { name, "aria-label": label },
            options.map((o) => h("option", { value: o }, o)),
          )
        : h("input", { name, placeholder: label, "aria-label": label }),
    );
    const out = h("div", {});
    const argsOf = () => Object.fromEntries(inputs.map((i) => [i.name, i.value]));
    const show = (made, problem) => {
      const args = argsOf();
      out.replaceChildren(
        previewBox(
          made,
          async (e) => {
            e.target.disabled = true;
            try {
              const done = await api(`/api/runs/${encodeURIComponent(run)}/decide`, {
                action,
                args,
                basis: made.basis,
                seen: made.preview,
              });
              out.replaceChildren(h("p", { class: "ok", role: "status" }, `recorded: ${made.preview.action}`));
              after(done.result);
            } catch (err) {
              if (err.status === 409 && err.data && err.data.fresh) show(err.data.fresh, err.message);
              else out.replaceChildren(h("p", { class: "error", role: "alert" }, err.message));
            }
          },
          problem,
        ),
      );
    };
    const form = h(
      "form",
      {
        "data-action": action,
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            show(await api(`/api/runs/${encodeURIComponent(run)}/preview`, { action, args: argsOf() }));
          } catch (err) {
            out.replaceChildren(h("p", { class: "error", role: "alert" }, err.message));
          }
        },
      },
      h("b", {}, title),
      inputs,
      h("button", { type: "submit" }, "Preview"),
      out,
    );
    return form;
  }

  /**
   * The handoff's Markdown and JSON and the run bundle (`taskspec import` loads it into another store),
   * one span per download with its separator, so a host that cannot save files hides them all.
   */
  function downloads(run) {
    const link = (file, label, title) =>
      h(
        "span",
        { class: "download" },
        " · ",
        h("a", { href: withToken(`/api/runs/${encodeURIComponent(run)}/${file}`), download: "", ...(title ? { title } : {}) }, label),
      );
    return [
      link("handoff.md", "handoff.md"),
      link("handoff.json", "handoff.json"),
      link("bundle.json", "run bundle", "every row and artifact of the run, for taskspec import into another store"),
    ];
  }

  async function takeoverPage(run) {
    setCrumbs(["runs", "#/"], [run, runLink(run)], ["takeover", runLink(run, "/takeover")]);
    const s = await api(`/api/runs/${encodeURIComponent(run)}/status`);
    const units = s.units.map((u) => u.unit);
    const reload = () => void takeoverPage(run).catch(showError);
    const flagged = s.blocked.some((b) => b.reason === "needs-expert");
    const pending = s.approvals.pending.map((p) => p.unit);
    const unknown = s.unknownEffects.map((e) => e.id);
    const causeOf = (u) => u.reason || s.units.find((x) => x.unit === u.unit)?.superseded || "";
    main.replaceChildren(
      h("h1", {}, `Take over run ${run} `, state(s.status)),
      h("div", { class: "next", id: "next" }, h("b", {}, "suggested next action: "), s.nextSafeAction),
      h("p", { class: "downloads" }, "Export:", ...downloads(run)),
      figures(s),
      h("h2", {}, "Decisions"),
      h(
        "p",
        { class: "muted" },
        "Each decision shows its preview first; Confirm records it only if the run is still as the preview showed.",
      ),
      h(
        "div",
        { class: "decisions" },
        decisionForm(run, "resume", "Resume", [], reload),
        flagged
          ? decisionForm(run, "unflag", "Clear the needs-expert flag", [["reason", "why it is settled"]], reload)
          : decisionForm(run, "flag", "Mark as needing expert handling", [["reason", "what the expert must look at"]], reload),
        pending.length
          ? decisionForm(
              run,
              "approve",
              "Approve a pending gate",
              [
                ["unit", "gate", "select", pending],
                ["token", "resume token (or the console's operator key)"],
              ],
              reload,
            )
          : "",
        unknown.length
          ? decisionForm(
              run,
              "resolve",
              "Resolve an effect of unknown outcome",
              [
                ["effect", "effect", "select", unknown],
                ["outcome", "outcome", "select", ["committed", "absent"]],
                ["remoteId", "remote id (with committed)"],
              ],
              reload,
            )
          : "",
        decisionForm(
          run,
          "rerun",
          "Re-run a unit",
          [
            ["unit", "unit", "select", units],
            ["reason", "why"],
          ],
          reload,
        ),
        decisionForm(
          run,
          "narrow",
          "Narrow the scope: keep only what these need",
          [
            ["to", "units or outputs to keep, e.g. c-out"],
            ["reason", "why"],
          ],
          reload,
        ),
        decisionForm(
          run,
          "branch",
          "Branch: a new run from the valid results",
          [
            ["at", "at event # (default: latest baseline)"],
            ["as", "new run id (default: next branch number)"],
            ["reason", "why"],
          ],
          (result) => {
            location.hash = runLink(result.branch, "/takeover");
          },
        ),
        decisionForm(
          run,
          "budget",
          "Raise a budget",
          [
            ["caps", "e.g. model_calls=120"],
            ["reason", "why"],
          ],
          reload,
        ),
        decisionForm(run, "cancel", "Cancel (compensates what it can)", [["reason", "why"]], reload),
      ),
      h("h2", {}, "Units"),
      h(
        "table",
        { id: "units" },
        h(
          "tr",
          {},
          ["unit", "state", "attempts", "why"].map((t) => h("th", {}, t)),
        ),
        s.units.map((u) =>
          h(
            "tr",
            {},
            h("td", {}, h("a", { href: runLink(run, `/unit/${encodeURIComponent(u.unit)}`) }, u.unit)),
            h("td", {}, state(u.state)),
            h("td", {}, u.attempts),
            h("td", {}, u.reason || u.superseded || ""),
          ),
        ),
      ),
      // each superseded record with its cause; no heading when nothing was superseded
      s.supersededUnits.length
        ? h(
            "div",
            {},
            h("h2", {}, "Why superseded"),
            h(
              "ul",
              { id: "superseded" },
              s.supersededUnits.map((u) =>
                h("li", {}, `${u.unit} a${u.attempt} (plan ${u.planVersion}): ${causeOf(u) || "no cause was recorded"}`),
              ),
            ),
          )
        : "",
      h("h2", {}, "Budget left"),
      budgetBars(s.budget),
      h("h2", {}, "Recent errors"),
      h(
        "ul",
        {},
        s.recentErrors.map((e) => h("li", {}, `${e.unit || ""} a${e.attempt ?? ""} ${e.class || ""}: ${e.message || ""}`)),
      ),
    );
  }

  async function route() {
    for (const f of cleanup.splice(0)) f();
    live.textContent = "○ offline";
    live.classList.remove("on");
    const [path, query] = location.hash.replace(/^#/, "").split("?");
    const parts = (path || "/").split("/").filter(Boolean).map(decodeURIComponent);
    try {
      if (parts[0] === "run" && parts[2] === "unit" && parts[3]) await unitPage(parts[1], parts[3]);
      else if (parts[0] === "run" && parts[2] === "takeover") await takeoverPage(parts[1]);
      else if (parts[0] === "run" && parts[1]) await runPage(parts[1]);
      else await runsPage(new URLSearchParams(query || ""));
      document.body.dataset.ready = location.hash || "#/";
    } catch (err) {
      showError(err);
    }
  }
  window.addEventListener("hashchange", route);
  const theme = new URLSearchParams(location.search).get("theme");
  if (theme) document.documentElement.dataset.theme = theme;
  void route();
})();
