/**
 * The per-user service of one store (docs/runtime-hooks.md): its run directory and the files in it
 * ({@link io.turndiff.service.ServiceFiles}), the discovery file a running daemon publishes and
 * takes back ({@link io.turndiff.service.Discovery}, {@link io.turndiff.service.DaemonFiles}), the
 * locks, the probe that makes a daemon prove it holds the token before anything is sent to it
 * ({@link io.turndiff.service.ServiceProbe}), and how it is started and stopped ({@link
 * io.turndiff.service.ServiceControl}). The command line's {@code service}, {@code serve --daemon},
 * {@code hooks status} and {@code uninstall} are thin adapters over it. Its files are the service's
 * own, never a workspace's: the classes that touch them are named in {@code ArchitectureTest}.
 */
package io.turndiff.service;
