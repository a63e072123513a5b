/**
 * What both edges speak: the facade over one store (Turndiff: capture, rewind and the review
 * queries sharing the workspace handles), the request bodies bound strictly to records, and the
 * JSON shapes of every answer: the wire records of {@link io.turndiff.api.wire}, written by {@link
 * io.turndiff.api.Json}'s one mapper. The HTTP service and the command line both use it; with the
 * HTTP service, the only package that uses Jackson.
 */
package io.turndiff.api;
