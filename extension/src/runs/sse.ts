/**
 * Server-sent events, parsed: the console's live streams arrive at the
 * extension host as text chunks and go on to the run panel as whole events.
 */
export interface ServerEvent {
  event: string;
  data: string;
  id?: string;
}

/** Feed it chunks; it returns the events each one completed and keeps the rest. */
export function sseParser(): (chunk: string) => ServerEvent[] {
  let buffer = "";
  return (chunk) => {
    buffer += chunk.replace(/\r\n?/g, "\n");
    const out: ServerEvent[] = [];
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
      if (data.length > 0) out.push({ event, data: data.join("\n"), ...(id !== undefined ? { id } : {}) });
    }
    return out;
  };
}
