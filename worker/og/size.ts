/** A share card's size in pixels (the Open Graph and Twitter large-image size). Kept apart so pages can import it without the renderer. */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
