/**
 * Handlers for specs/trip-booking.task.yaml: search, book a flight and a
 * hotel (compensable, on the local booking service TASKSPEC_BOOKING_URL),
 * write the itinerary, and send one confirmation (irreversible, on the local
 * mail gateway TASKSPEC_MAIL_URL). Choices are deterministic: the cheapest
 * offer wins.
 */
import { isPersonConfirmed, type HandlerModule, type PersonConfirmedReceipt, type UnitContext } from "@taskspec/runtime";
import { bookingTools } from "./booking-tools.js";
import { withInvocationLog } from "./invocation-log.js";
import { sendConfirmation } from "./mail-tools.js";

interface Trip {
  from: string;
  to: string;
  out: string;
  back: string;
  guests: number;
}

interface FlightOffer {
  item: string;
  fare: number;
  departs: string;
  arrives: string;
  departs_back: string;
}

interface HotelOffer {
  item: string;
  rate: number;
  nights: number;
  check_in: string;
}

interface Options {
  flights: FlightOffer[];
  hotels: HotelOffer[];
}

function nightsBetween(out: string, back: string): number {
  return Math.round((Date.parse(back) - Date.parse(out)) / 86_400_000);
}

function cheapest<T>(offers: readonly T[], price: (offer: T) => number): T {
  const best = [...offers].sort((a, b) => price(a) - price(b))[0];
  if (!best) throw new Error("no offer to choose from");
  return best;
}

async function options(ctx: UnitContext) {
  await ctx.charge({ model_calls: 2, tokens: 12_000 });
  const trip = ctx.inputs.trip as Trip;
  const flights = await ctx.tool<FlightOffer[]>("search_flights", { from: trip.from, to: trip.to, date: trip.out, back: trip.back });
  const hotels = await ctx.tool<HotelOffer[]>("search_hotels", { to: trip.to, date: trip.out, nights: nightsBetween(trip.out, trip.back) });
  const found: Options = { flights, hotels };
  await ctx.write("options", found);
  return found;
}

async function flight(ctx: UnitContext) {
  const { flights } = await ctx.readJson<Options>("options");
  const offer = cheapest(flights, (candidate) => candidate.fare);
  const booking = await ctx.tool<Record<string, unknown>>("book_flight", {
    ...offer,
    traveller: String(ctx.inputs.traveller ?? "traveller"),
  });
  await ctx.write("flight-booking", booking);
  return booking;
}

async function hotel(ctx: UnitContext) {
  const { hotels } = await ctx.readJson<Options>("options");
  const arrival = ctx.needs.flight?.result as { arrives: string };
  const offer = cheapest(hotels, (candidate) => candidate.rate);
  // The traveller checks in once the flight has landed, not before.
  const checkIn = offer.check_in > arrival.arrives ? offer.check_in : arrival.arrives;
  const checkOut = new Date(Date.parse(offer.check_in.slice(0, 10)) + offer.nights * 86_400_000).toISOString().slice(0, 10);
  const booking = await ctx.tool<Record<string, unknown>>("book_hotel", {
    ...offer,
    check_in: checkIn,
    check_out: `${checkOut}T11:00`,
    traveller: String(ctx.inputs.traveller),
  });
  await ctx.write("hotel-booking", booking);
  return booking;
}

async function itinerary(ctx: UnitContext) {
  await ctx.charge({ model_calls: 1, tokens: 6_000 });
  const flightBooking = ctx.needs.flight?.result as Record<string, string>;
  const hotelBooking = ctx.needs.hotel?.result as Record<string, string>;
  const text = [
    `Itinerary for ${String(ctx.inputs.traveller)}`,
    `Flight ${flightBooking.item} (booking ${flightBooking.booking_id}): arrives ${flightBooking.arrives}, returns ${flightBooking.departs_back}.`,
    `Hotel ${hotelBooking.item} (reservation ${hotelBooking.reservation_id}): ${hotelBooking.check_in} to ${hotelBooking.check_out}.`,
  ].join("\n");
  await ctx.write("itinerary", text, { mediaType: "text/plain" });
  return { flight: flightBooking, hotel: hotelBooking, text };
}

async function confirm(ctx: UnitContext) {
  const planned = ctx.needs.itinerary?.result as { text: string };
  const sent = await ctx.tool<{ message_id: string } | PersonConfirmedReceipt>("send_confirmation", {
    to: String(ctx.inputs.traveller),
    subject: "Your Lisbon trip",
    body: planned.text,
  });
  await ctx.write("confirmation", sent);
  // A person confirmed the email went out but its receipt was lost: record what they said.
  if (isPersonConfirmed(sent)) return { sent: [sent.remote_id ?? `confirmed by ${sent.confirmed_by_person}`] };
  return { sent: [sent.message_id] };
}

const handlers: HandlerModule = {
  units: withInvocationLog({ options, flight, hotel, itinerary, confirm }),
  tools: { ...bookingTools, send_confirmation: sendConfirmation },
};

export default handlers;
