package io.turndiff.api.wire;

import io.turndiff.capture.BeganTurn;

/** A begun turn: {@code POST /v1/turns}, {@code turndiff turn begin}. */
public record WireBeganTurn(
    String session, String turn, long seq, String workspace, boolean newSession, String boundary) {

  public static WireBeganTurn of(BeganTurn began) {
    return new WireBeganTurn(
        began.session(),
        began.turn(),
        began.seq(),
        began.workspace().toString(),
        began.newSession(),
        began.boundary().code());
  }
}
