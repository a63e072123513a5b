package io.turndiff.boundary;

import io.turndiff.model.BoundaryKind;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test run once with each kernel handle a deep tree is reached with ({@code openat2}, {@code
 * openat}), the kind its one parameter; {@link KindsInThisMode} skips the kind the mode lacks.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest
@EnumSource(
    value = BoundaryKind.class,
    names = {"OPENAT2", "OPENAT"})
@interface EachKernelHandle {}
