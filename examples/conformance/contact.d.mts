/** The contact-form codec built with the given `codec` builders (the package's or the sources'). */
export function contactForm(codec: object): unknown;
