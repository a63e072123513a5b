package io.turndiff.store;

import io.turndiff.model.Sha256;

/**
 * Content already compressed for the blob table (off the store's lock, by a {@link BlobEncoder}).
 */
public record EncodedBlob(Sha256 sha256, long size, String encoding, byte[] data) {}
