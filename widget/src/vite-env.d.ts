// `?inline` CSS imports arrive as a string (Vite); the widget injects it into its shadow root.
declare module '*.css?inline' {
  const css: string;
  export default css;
}
