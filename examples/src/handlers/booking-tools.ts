/**
 * Tool adapters for the local booking service, as the trip-booking contract
 * names them: searches (read), bookings (compensable; the ledger's key goes in
 * `Idempotency-Key`), their lookups by key, and the idempotent cancellations
 * that compensate them. A lookup answers the same receipt the booking call
 * would have, so the ledger can adopt it after an UNKNOWN outcome.
 */
import type { ToolAdapter, ToolCallMeta } from "@taskspec/runtime";
import type { Booking } from "../remote/booking.js";
import { callRemote } from "./remote-client.js";

function query(args: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) if (value !== undefined) params.set(name, String(value));
  return params.toString();
}

function search(kind: "flight" | "hotel"): ToolAdapter {
  return {
    async call(args, meta) {
      return callRemote<object[]>("booking", { method: "GET", path: `/offers?${query({ ...args, kind })}`, meta: { signal: meta.signal } });
    },
  };
}

export const flightReceipt = (booking: Booking) => ({
  booking_id: booking.id,
  status: booking.status,
  item: booking.item,
  ...booking.details,
});
export const hotelReceipt = (booking: Booking) => ({
  reservation_id: booking.id,
  status: booking.status,
  item: booking.item,
  ...booking.details,
});

function book(kind: "flight" | "hotel", receipt: (booking: Booking) => object): ToolAdapter {
  return {
    async call(args, meta) {
      const { item, traveller, ...details } = args;
      const booking = await callRemote<Booking>("booking", {
        method: "POST",
        path: "/bookings",
        body: { kind, item, traveller, details },
        meta,
      });
      return receipt(booking as Booking);
    },
  };
}

/** Answers exactly the receipt the booking call would have: a re-run after a lost receipt gets this one (one receipt). */
function lookup(receipt: (booking: Booking) => object): ToolAdapter {
  return {
    async call(args, meta) {
      const key = String(args.key);
      const booking = await callRemote<Booking>("booking", {
        method: "GET",
        path: `/bookings?key=${encodeURIComponent(key)}`,
        meta: { signal: meta.signal },
        absentIsNull: true,
      });
      return booking ? receipt(booking) : null;
    },
  };
}

function cancel(idField: string, receipt: (booking: Booking) => object): ToolAdapter {
  return {
    async call(args, meta: ToolCallMeta) {
      const id = String(args[idField]);
      const booking = await callRemote<Booking>("booking", { method: "POST", path: `/bookings/${encodeURIComponent(id)}/cancel`, meta });
      return receipt(booking as Booking);
    },
  };
}

export const bookingTools: Record<string, ToolAdapter> = {
  search_flights: search("flight"),
  search_hotels: search("hotel"),
  book_flight: book("flight", flightReceipt),
  find_booking: lookup(flightReceipt),
  cancel_flight: cancel("booking_id", flightReceipt),
  book_hotel: book("hotel", hotelReceipt),
  find_reservation: lookup(hotelReceipt),
  cancel_hotel: cancel("reservation_id", hotelReceipt),
};
