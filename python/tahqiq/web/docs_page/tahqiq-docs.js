// The /docs page: Swagger UI over this server's own description. Every URL is relative to the page, so the page
// works behind a path prefix, and nothing is fetched from another host (validatorUrl: null turns off the badge
// that would ask validator.swagger.io).
window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
