// The registered constants of the `layers` protocol (prereg/layers.md, prereg/layers-horizon.md).
export const MAIN_BOUNDARY_MS = 50;
export const HORIZONS_MS = [50, 150, 350, 750, 1000] as const;
