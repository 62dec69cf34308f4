extension QRCode {
    /// The code as a standalone SVG document: a white square the size of the code and its quiet zone of 4
    /// modules, then one black `<path>` of rectangles, one per horizontal run of dark modules, in a
    /// `viewBox` one unit per module, drawn with `shape-rendering="crispEdges"` so that no edge is
    /// blurred. `width` and `height` are `pixelsPerModule` pixels a module (CSS may scale it).
    public func svg(pixelsPerModule: Int = 8) -> String {
        precondition(pixelsPerModule > 0, "a module needs a pixel at least")
        let quiet = Self.quietZone
        let side = size + 2 * quiet
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard modules[row, column] else {
                    column += 1
                    continue
                }
                var length = 1
                while column + length < size && modules[row, column + length] { length += 1 }
                path += "M\(column + quiet),\(row + quiet)h\(length)v1h-\(length)z"
                column += length
            }
        }
        let pixels = side * pixelsPerModule
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" \
            height="\(pixels)" shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" \
            fill="#fff"/><path fill="#000" d="\(path)"/></svg>

            """
    }
}
