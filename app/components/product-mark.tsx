import { PRODUCT_NAME } from '~/sponsors/product'
import * as brand from '~/styles/sponsors.css'

/**
 * The product's mark, drawn inline so it takes the theme's colours: the tile in the colour made to read on the
 * header (brandContrast), the letter in the header's own colour, so it stands out on any sponsor's header, light or
 * dark. public/sponsors/product.svg stays the mark for places outside the header (the favicon's shape).
 */
export function ProductMark() {
  return (
    <svg
      viewBox="0 0 32 32"
      width={28}
      height={28}
      role="img"
      aria-label={PRODUCT_NAME}
      className={brand.productLogo}
      data-testid="product-logo"
    >
      <title>{PRODUCT_NAME}</title>
      <rect width="32" height="32" rx="7" className={brand.productMarkTile} />
      <path d="M9 8h9a5 5 0 0 1 0 10h-4v6H9z" className={brand.productMarkLetter} />
      <circle cx="23" cy="23" r="3" className={brand.productMarkLetter} />
    </svg>
  )
}
