// The registered constants of the `layers` protocol (prereg/layers.md, prereg/layers-horizon.md).
/** prereg/layers-amendment-2.md: 100 ms after the server received the policy's last save */
export const MAIN_BOUNDARY_MS = 100;
export const HORIZONS_MS = [50, 150, 350, 750, 1000] as const;
