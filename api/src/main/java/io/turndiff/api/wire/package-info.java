/**
 * The wire records: one record per JSON response shape of the HTTP service and the command line,
 * each built from its domain value by {@code of}, written by the one mapper of {@link
 * io.turndiff.api.Json} (snake_case names, nulls written, non-ASCII escaped). A path is a {@link
 * io.turndiff.api.wire.WirePath}: {@code path}, plus {@code path_base64} only when the name is not
 * UTF-8.
 */
package io.turndiff.api.wire;
