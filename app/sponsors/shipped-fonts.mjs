// The font families the product ships for its sponsor themes: scripts/copy-fonts.mjs copies each package's variable
// woff2 files into public/fonts/<key>/ at build time, with a stylesheet public/fonts/<key>.css; app/sponsors/fonts.ts
// links the ones a theme's font stacks name.
export const SHIPPED_FONT_LIST = [
  { key: 'public-sans', package: '@fontsource-variable/public-sans', family: 'Public Sans Variable' },
  { key: 'inter', package: '@fontsource-variable/inter', family: 'Inter Variable' },
  { key: 'source-sans-3', package: '@fontsource-variable/source-sans-3', family: 'Source Sans 3 Variable' },
  { key: 'jost', package: '@fontsource-variable/jost', family: 'Jost Variable' },
  { key: 'source-serif-4', package: '@fontsource-variable/source-serif-4', family: 'Source Serif 4 Variable' },
  { key: 'eb-garamond', package: '@fontsource-variable/eb-garamond', family: 'EB Garamond Variable' },
  { key: 'roboto-slab', package: '@fontsource-variable/roboto-slab', family: 'Roboto Slab Variable' },
  { key: 'nunito', package: '@fontsource-variable/nunito', family: 'Nunito Variable' },
  { key: 'oswald', package: '@fontsource-variable/oswald', family: 'Oswald Variable' },
]
