/** The product's own name and logo; the header shows the logo beside a sponsor's unless the theme hides it. */
export const PRODUCT_NAME = 'Knowledge assistant'
export const PRODUCT_LOGO = '/sponsors/product.svg'
