/**
 * What both edges speak: the facade over one store (Turndiff: capture, rewind and the review
 * queries sharing the workspace handles), the request bodies bound strictly to records, and the
 * JSON shapes of every answer: the wire records of {@link io.turndiff.api.wire}, written by {@link
 * io.turndiff.api.Json}'s one mapper; the stable error code of each refusal ({@link
 * io.turndiff.api.Refusal}), and the events of a turn that every edge shares; the turn locks' type
 * ({@link io.turndiff.api.TurnLocks}), of which the REST endpoints and the hooks each keep their
 * own set (the REST ones by turn id, the hooks' by runtime session), so a REST call and a hook call
 * on one turn are not serialized against each other: the store's transactions are what keeps them
 * consistent. The HTTP service, the hooks and the command line all use it.
 */
package io.turndiff.api;
