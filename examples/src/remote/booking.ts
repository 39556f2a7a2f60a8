/**
 * A local booking service for flights and hotels: bookings are created with
 * an `Idempotency-Key`, found again by key, and cancelled idempotently (the
 * compensator of a saga: cancelling twice is one cancellation).
 *
 *   GET  /offers?kind=&from=&to=&date=&nights=   what is on offer now (deterministic by query)
 *   POST /bookings              { kind: flight|hotel, item, traveller, details? }  headers Idempotency-Key, X-Fencing-Token
 *   GET  /bookings?key=K        the booking made under K, 404 when none; with X-Fencing-Token it raises
 *                               K's fence: a later booking under K with an older token is refused
 *   GET  /bookings              every booking
 *   GET  /bookings/:id          one booking
 *   POST /bookings/:id/cancel   cancels; a repeat answers the same cancelled booking
 *   GET  /stats                 creations, duplicatesRefused, cancellations, cancelRepeats, ...
 */
import path from "node:path";
import { RecordDir } from "./durable-file.js";
import { header, json, requireString } from "./http-kit.js";
import { isMain, runAsProcess, startService, type RunningService, type ServiceOptions } from "./service.js";

export const BOOKING_KINDS = ["flight", "hotel"] as const;
export type BookingKind = (typeof BOOKING_KINDS)[number];

export interface Booking {
  id: string;
  key: string | null;
  kind: BookingKind;
  item: string;
  traveller: string;
  /** What was booked (fare, times, nights...), as the caller sent it. */
  details: Record<string, unknown>;
  status: "confirmed" | "cancelled";
  createdAt: string;
  cancelledAt: string | null;
}

/** Two fares per direction, times fixed by the query: the same search answers the same offers. */
function flightOffers(query: URLSearchParams): object[] {
  const from = query.get("from") ?? "BER";
  const to = query.get("to") ?? "LIS";
  const date = query.get("date") ?? "2026-12-07";
  const back = query.get("back") ?? date;
  return [
    { item: `${from}-${to} ${date} 07:10`, fare: 189, departs: `${date}T07:10`, arrives: `${date}T10:05`, departs_back: `${back}T18:40` },
    { item: `${from}-${to} ${date} 13:25`, fare: 142, departs: `${date}T13:25`, arrives: `${date}T16:20`, departs_back: `${back}T20:15` },
  ];
}

function hotelOffers(query: URLSearchParams): object[] {
  const city = query.get("to") ?? "LIS";
  const date = query.get("date") ?? "2026-12-07";
  const nights = Number(query.get("nights") ?? 3);
  return [
    { item: `${city} Alfama Guesthouse`, rate: 96, nights, check_in: `${date}T15:00` },
    { item: `${city} Conference Hotel`, rate: 154, nights, check_in: `${date}T14:00` },
  ];
}

export function startBooking(options: ServiceOptions): Promise<RunningService> {
  return startService(
    {
      name: "booking",
      fenceResource: (req) => (req.params.id !== undefined ? `booking:${req.params.id}` : (header(req, "Idempotency-Key") ?? "bookings")),
      lookupResource: (req) => (req.path === "/bookings" ? (req.query.get("key") ?? undefined) : undefined),
      routes: (state) => {
        const bookings = new RecordDir<Booking>(path.join(options.dataDir, "bookings"));
        return [
          {
            method: "POST",
            pattern: "/bookings",
            write: true,
            handle: (req) => {
              const key = header(req, "Idempotency-Key") ?? null;
              const existing = key === null ? undefined : bookings.find((booking) => booking.key === key);
              if (existing) {
                state.count("duplicatesRefused");
                return json(200, existing, { "Idempotent-Replayed": "true" });
              }
              const kind = requireString(req, "kind");
              if (!(BOOKING_KINDS as readonly string[]).includes(kind))
                throw new Error(`"kind" must be one of ${BOOKING_KINDS.join(", ")}`);
              const id = `b${String(bookings.size + 1).padStart(4, "0")}`;
              const booking: Booking = {
                id,
                key,
                kind: kind as BookingKind,
                item: requireString(req, "item"),
                traveller: requireString(req, "traveller"),
                details:
                  typeof req.body.details === "object" && req.body.details !== null ? (req.body.details as Record<string, unknown>) : {},
                status: "confirmed",
                createdAt: new Date().toISOString(),
                cancelledAt: null,
              };
              bookings.put(booking);
              state.count("creations");
              return json(201, booking);
            },
          },
          {
            method: "GET",
            pattern: "/bookings",
            write: false,
            handle: (req) => {
              const key = req.query.get("key");
              if (key === null) return json(200, bookings.list());
              state.count("lookups");
              const booking = bookings.find((candidate) => candidate.key === key);
              return booking ? json(200, booking) : json(404, { error: `no booking under key ${key}` });
            },
          },
          {
            method: "GET",
            pattern: "/offers",
            write: false,
            handle: (req) => {
              const kind = req.query.get("kind");
              if (kind !== "flight" && kind !== "hotel") throw new Error('"kind" must be flight or hotel');
              state.count("searches");
              return json(200, kind === "flight" ? flightOffers(req.query) : hotelOffers(req.query));
            },
          },
          {
            method: "GET",
            pattern: "/bookings/:id",
            write: false,
            handle: (req) => {
              const booking = bookings.get(req.params.id ?? "");
              return booking ? json(200, booking) : json(404, { error: `no booking ${req.params.id}` });
            },
          },
          {
            method: "POST",
            pattern: "/bookings/:id/cancel",
            write: true,
            handle: (req) => {
              const booking = bookings.get(req.params.id ?? "");
              if (!booking) return json(404, { error: `no booking ${req.params.id}` });
              if (booking.status === "cancelled") {
                state.count("cancelRepeats");
                return json(200, booking);
              }
              const cancelled: Booking = { ...booking, status: "cancelled", cancelledAt: new Date().toISOString() };
              bookings.put(cancelled);
              state.count("cancellations");
              return json(200, cancelled);
            },
          },
        ];
      },
    },
    options,
  );
}

if (isMain(import.meta.url)) void runAsProcess("booking", startBooking);
